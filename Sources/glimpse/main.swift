print("glimpse")
