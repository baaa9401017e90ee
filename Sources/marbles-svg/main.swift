print("marbles-svg: not yet")
