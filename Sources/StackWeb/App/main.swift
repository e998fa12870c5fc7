print("stackweb")
