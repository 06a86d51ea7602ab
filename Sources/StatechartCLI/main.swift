print("statechart")
