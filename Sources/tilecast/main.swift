print("tilecast")
