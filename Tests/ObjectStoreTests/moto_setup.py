"""Prepares a moto server started with INITIAL_NO_AUTH_ACTION_COUNT=3 for the object-store
tests: an IAM user with S3 rights and an access key (the three unauthenticated actions), then
the bucket, created with that key (moto now checks every request's SigV4 signature and the
user's rights). Prints "ACCESS_KEY SECRET_KEY".

usage: moto_setup.py ENDPOINT BUCKET
"""
import json
import sys

import boto3
from botocore.config import Config

endpoint, bucket = sys.argv[1], sys.argv[2]
config = Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1})
iam = boto3.client("iam", endpoint_url=endpoint, region_name="us-east-1",
                   aws_access_key_id="bootstrap", aws_secret_access_key="bootstrap")
iam.create_user(UserName="tilecast")
iam.put_user_policy(UserName="tilecast", PolicyName="s3", PolicyDocument=json.dumps({
    "Version": "2012-10-17",
    "Statement": [{"Effect": "Allow", "Action": "s3:*", "Resource": "*"}],
}))
key = iam.create_access_key(UserName="tilecast")["AccessKey"]
s3 = boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", config=config,
                  aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"])
s3.create_bucket(Bucket=bucket)
print(key["AccessKeyId"], key["SecretAccessKey"])
