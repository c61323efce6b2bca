"""Signs requests with botocore's S3 SigV4 signer (the AWS CLI's), at a fixed time, for the
signer test to compare against. Reads a JSON list of requests on stdin, prints one
Authorization header per line.

Each request: method, url (path-style, already percent-encoded), headers (object), body (hex),
key, secret, token (or null), region, time ("20130524T000000Z").
"""
import datetime
import json
import sys
from unittest import mock

import botocore.auth
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

for case in json.load(sys.stdin):
    when = datetime.datetime.strptime(case["time"], "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)
    request = AWSRequest(method=case["method"], url=case["url"], headers=case["headers"], data=bytes.fromhex(case["body"]))
    signer = S3SigV4Auth(Credentials(case["key"], case["secret"], case["token"]), "s3", case["region"])
    # S3's signer signs the payload hash only over TLS or when asked; TileCast always sends it.
    request.context["payload_signing_enabled"] = True
    with mock.patch.object(botocore.auth, "get_current_datetime", return_value=when):
        signer.add_auth(request)
    print(request.headers["Authorization"])
