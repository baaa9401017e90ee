print("marbles")
