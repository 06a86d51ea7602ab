import Statechart
