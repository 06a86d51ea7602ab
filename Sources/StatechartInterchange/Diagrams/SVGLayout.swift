import Statechart

/// Sizes and positions of every state and the route of every arrow, for ``SVGDiagram``'s own
/// layout. Computed without recursion (the nesting comes from a document): sizes from the last
/// state to the first (children have larger indices than their parent), positions from the first
/// to the last.
///
/// Each container lays its children out in one row, in document order (a parallel state's
/// regions too). An arrow belongs to the innermost container holding both its ends and runs in
/// one of that container's lanes: horizontal tracks above its row (arrows going right, self-loops,
/// arrows between a compound state and its own descendants) or below it (arrows going left). An
/// arrow leaves its source vertically, runs along its lane and enters its target vertically, so
/// it crosses no sibling box; its label sits along the lane. Lanes are given shortest arrow first, to
/// the lowest lane where the arrow and its label overlap no other, so labels never overlap.
struct SVGLayout {
    static let charWidth = 7
    static let atomicHeight = 36
    static let minAtomicWidth = 72
    static let historySize = 26
    static let header = 24
    static let padding = 10
    /// Room left of a container's children: the initial marker stands there.
    static let sidePadding = 22
    /// Room between siblings: an initial marker, and the vertical legs of arrows.
    static let gap = 28
    static let regionGap = 12
    static let laneHeight = 18
    static let laneMargin = 4

    /// Where an arrow meets a box: at one of the points shared out along its top or bottom edge,
    /// or, for a compound state's arrow to or from its own descendants, at its left border.
    enum End: Equatable {
        case top(Int)
        case bottom(Int)
        case leftBorder(Int)
    }

    /// How one arrow of ``DiagramChart/arrows`` is drawn (initial arrows are markers, not routed).
    struct Route {
        var arrow: Int
        var container: Int
        var above: Bool
        var start: End
        var end: End
        var lane = 0
        /// The label's centre, relative to the container's left edge.
        var labelX = 0
        var labelWidth = 0
        /// The positions of its ends among the points of the edges they meet.
        var startSlot = 0
        var endSlot = 0
    }

    let d: DiagramChart
    let arrows: [DiagramChart.Arrow]
    var width: [Int]
    var height: [Int]
    /// Position relative to the parent's top-left corner.
    var relX: [Int]
    var relY: [Int]
    /// Absolute position.
    var x: [Int]
    var y: [Int]
    /// Top and bottom of each container's row of children, relative to the container.
    var rowTop: [Int]
    var rowBottom: [Int]
    var routes: [Route] = []
    /// The routes of each container.
    var routesIn: [[Int]]
    /// The routes meeting each state's top and bottom edges, in the order of their points.
    var topEnds: [[Int]]
    var bottomEnds: [[Int]]

    init(_ d: DiagramChart) {
        self.d = d
        arrows = d.arrows
        let n = d.count
        width = Array(repeating: 0, count: n)
        height = Array(repeating: 0, count: n)
        relX = Array(repeating: 0, count: n)
        relY = Array(repeating: 0, count: n)
        x = Array(repeating: 0, count: n)
        y = Array(repeating: 0, count: n)
        rowTop = Array(repeating: 0, count: n)
        rowBottom = Array(repeating: 0, count: n)
        topEnds = Array(repeating: [], count: n)
        bottomEnds = Array(repeating: [], count: n)
        routesIn = Array(repeating: [], count: n)
        planRoutes()
        for i in stride(from: n - 1, through: 0, by: -1) { measure(i) }
        for i in 0..<n {
            let p = d.parents[i]
            x[i] = p < 0 ? 0 : x[p] + relX[i]
            y[i] = p < 0 ? 0 : y[p] + relY[i]
        }
    }

    static func textWidth(_ s: String) -> Int { s.count * charWidth }

    /// The width of an arrow's label (11 px text) with a little room either side.
    static func labelWidth(_ s: String) -> Int { s.isEmpty ? 0 : (s.count * 13 + 1) / 2 + 8 }

    func isContainer(_ i: Int) -> Bool { i == 0 || !d.children[i].isEmpty }

    // MARK: - Routes

    /// Chooses each arrow's container, side and ends, and orders the points along every edge
    /// by the state at the arrow's other end (document order is left-to-right order), which keeps
    /// arrows meeting one edge from crossing each other there.
    private mutating func planRoutes() {
        for (k, arrow) in arrows.enumerated() where arrow.kind != .initial {
            let s = arrow.source
            let t = arrow.target
            var route: Route
            if s == t {
                route = Route(arrow: k, container: max(d.parents[s], 0), above: true, start: .top(s), end: .top(t))
            } else if d.isWithin(t, s) {
                route = Route(arrow: k, container: s, above: true, start: .leftBorder(s), end: .top(t))
            } else if d.isWithin(s, t) {
                route = Route(arrow: k, container: t, above: true, start: .top(s), end: .leftBorder(t))
            } else {
                var p = d.parents[s]
                while p > 0, !d.isWithin(t, p) { p = d.parents[p] }
                let forward = d.childOf(p, containing: s) < d.childOf(p, containing: t)
                route = Route(
                    arrow: k, container: p, above: forward,
                    start: forward ? .top(s) : .bottom(s), end: forward ? .top(t) : .bottom(t))
            }
            route.labelWidth = Self.labelWidth(arrow.edge.label)
            routes.append(route)
        }
        var tops: [[(key: Int, route: Int, order: Int)]] = Array(repeating: [], count: d.count)
        var bottoms = tops
        for (r, route) in routes.enumerated() {
            routesIn[route.container].append(r)
            let arrow = arrows[route.arrow]
            for (end, other, order) in [(route.start, arrow.target, 0), (route.end, arrow.source, 1)] {
                switch end {
                case .top(let b): tops[b].append((other, r, order))
                case .bottom(let b): bottoms[b].append((other, r, order))
                case .leftBorder: break
                }
            }
        }
        func sorted(_ list: [(key: Int, route: Int, order: Int)]) -> [Int] {
            let points = list.sorted { ($0.key, $0.route, $0.order) < ($1.key, $1.route, $1.order) }
            for (slot, point) in points.enumerated() {
                if point.order == 0 { routes[point.route].startSlot = slot } else { routes[point.route].endSlot = slot }
            }
            return points.map(\.route)
        }
        topEnds = tops.map(sorted)
        bottomEnds = bottoms.map(sorted)
    }

    /// The x of an arrow's end, relative to `container`'s left edge.
    private func endX(_ end: End, route r: Int, isStart: Bool, in container: Int) -> Int {
        let box: Int
        let list: [Int]
        switch end {
        case .leftBorder: return 0
        case .top(let b): (box, list) = (b, topEnds[b])
        case .bottom(let b): (box, list) = (b, bottomEnds[b])
        }
        let index = isStart ? routes[r].startSlot : routes[r].endSlot
        var offset = width[box] * (index + 1) / (list.count + 1)
        var b = box
        while b != container, b > 0 {
            offset += relX[b]
            b = d.parents[b]
        }
        return offset
    }

    /// Gives the container's routes on one side their lanes; returns how many lanes it used.
    ///
    /// An arrow takes the lowest lane where it and its label overlap no other arrow of the lane
    /// and, when one exists a few lanes up, where no label stands across another arrow's vertical
    /// legs (a leg rises through every lane under its own).
    private mutating func assignLanes(_ container: Int, above: Bool) -> Int {
        struct Placed {
            var r: Int
            var low: Int
            var high: Int
            var labelLow: Int
            var labelHigh: Int
            /// The xs of its legs that rise through the lanes under its own.
            var legs: [Int]
            var lane = 0
        }
        var mine: [Placed] = []
        for r in routesIn[container] where routes[r].above == above {
            let route = routes[r]
            let a = endX(route.start, route: r, isStart: true, in: container)
            let b = endX(route.end, route: r, isStart: false, in: container)
            let half = route.labelWidth / 2
            let centre = max((a + b) / 2, half + 2)
            routes[r].labelX = centre
            var legs: [Int] = []
            if case .leftBorder = route.start {} else { legs.append(a) }
            if case .leftBorder = route.end {} else { legs.append(b) }
            let (labelLow, labelHigh) = half == 0 ? (centre, centre) : (centre - half, centre + half)
            mine.append(Placed(r: r, low: min(a, b, labelLow), high: max(a, b, labelHigh),
                               labelLow: labelLow, labelHigh: labelHigh, legs: legs))
        }
        mine.sort { ($0.high - $0.low, $0.r) < ($1.high - $1.low, $1.r) }
        var placed: [Placed] = []
        var laneCount = 0
        for var m in mine {
            func overlaps(_ lane: Int) -> Bool {
                placed.contains { $0.lane == lane && m.low < $0.high + 6 && $0.low < m.high + 6 }
            }
            func crossesLegs(_ lane: Int) -> Bool {
                placed.contains { p in
                    if p.lane < lane { return m.legs.contains { $0 > p.labelLow - 2 && $0 < p.labelHigh + 2 } }
                    if p.lane > lane { return p.legs.contains { $0 > m.labelLow - 2 && $0 < m.labelHigh + 2 } }
                    return false
                }
            }
            var lane = 0
            while overlaps(lane) { lane += 1 }
            var clean = lane
            while clean < lane + 3, overlaps(clean) || crossesLegs(clean) { clean += 1 }
            if clean < lane + 3 { lane = clean }
            m.lane = lane
            placed.append(m)
            routes[m.r].lane = lane
            laneCount = max(laneCount, lane + 1)
        }
        return laneCount
    }

    // MARK: - Boxes

    private mutating func measure(_ i: Int) {
        let label = d.labels[i]
        switch d.kinds[i] {
        case .shallowHistory, .deepHistory:
            width[i] = Self.historySize
            height[i] = Self.historySize
            return
        default: break
        }
        let children = d.children[i]
        if children.isEmpty {
            width[i] = max(Self.minAtomicWidth, Self.textWidth(label) + 24)
            height[i] = Self.atomicHeight
            return
        }
        let top = i == 0 ? Self.padding : Self.header
        let isParallel = d.kinds[i] == .parallel
        let side = isParallel ? Self.padding : Self.sidePadding
        // The row, in document order; a parallel state's regions all as tall as the tallest.
        let tallest = children.map { height[$0] }.max() ?? 0
        var cx = side
        for c in children {
            relX[c] = cx
            if isParallel { height[c] = tallest }
            cx += width[c] + (isParallel ? Self.regionGap : Self.gap)
        }
        let rowRight = cx - (isParallel ? Self.regionGap : Self.gap)
        let lanesAbove = assignLanes(i, above: true)
        let lanesBelow = assignLanes(i, above: false)
        rowTop[i] = top + (lanesAbove > 0 ? lanesAbove * Self.laneHeight + Self.laneMargin : 0)
        for c in children { relY[c] = rowTop[i] }
        rowBottom[i] = rowTop[i] + tallest
        let below = lanesBelow > 0 ? lanesBelow * Self.laneHeight + Self.laneMargin : 0
        height[i] = rowBottom[i] + below + Self.padding
        var right = rowRight + (i == 0 ? Self.padding : side)
        for route in routesIn[i].map({ routes[$0] }) {
            right = max(right, route.labelX + route.labelWidth / 2 + Self.padding)
        }
        let minWidth = i == 0 ? 0 : Self.textWidth(label) + 2 * Self.padding
        width[i] = max(minWidth, right)
    }

    // MARK: - Geometry of arrows

    /// The y of a lane's centre line, absolute.
    func laneY(_ route: Route) -> Int {
        let c = route.container
        let step = route.lane * Self.laneHeight + Self.laneHeight / 2 + 2
        return route.above ? y[c] + rowTop[c] - step : y[c] + rowBottom[c] + step
    }

    /// The box of a route's label, absolute: just above its lane's line for a lane above the row,
    /// just below it for a lane below, so that the label hides no part of its own arrow and stays
    /// clear of the next lane's line.
    func labelBox(_ route: Route) -> (x: Int, y: Int, width: Int, height: Int) {
        let lane = laneY(route)
        return (
            x[route.container] + route.labelX - route.labelWidth / 2, route.above ? lane - 14 : lane + 1,
            route.labelWidth, 13
        )
    }

    /// The points of a route's path, absolute: its source end, the corners on its lane, its
    /// target end.
    func points(_ r: Int) -> [(x: Int, y: Int)] {
        let route = routes[r]
        let lane = laneY(route)
        let c = route.container
        func point(_ end: End, isStart: Bool) -> (x: Int, y: Int) {
            let px = x[c] + endX(end, route: r, isStart: isStart, in: c)
            switch end {
            case .top(let b): return (px, y[b])
            case .bottom(let b): return (px, y[b] + height[b])
            case .leftBorder: return (px, lane)
            }
        }
        let a = point(route.start, isStart: true)
        let b = point(route.end, isStart: false)
        var result = [a]
        if a.y != lane { result.append((a.x, lane)) }
        if b.y != lane { result.append((b.x, lane)) }
        result.append(b)
        return result
    }
}
