import Statechart
import StatechartECMAScript
import Testing

/// XML values read through their read-only DOM (SCXML B.2.2, rule R82).
@Suite struct XMLDOMTests {
    private func session(_ markup: String) throws -> ScriptSession {
        let session = ScriptSession()
        try session.declare("doc", .xml(markup))
        return session
    }

    @Test("R82: an XML value is a DOM: elements by tag name in document order, attributes, names, children, text")
    func readsTheTree() throws {
        let s = try session(
            """
            <books xmlns=""><!-- a shelf --><book title="title1" year='1999'>One &amp; <i>only</i></book>
            <book title="title2"><![CDATA[a <raw> text]]></book><x:note xmlns:x="urn:x">&#x41;&#66;</x:note></books>
            """)
        #expect(try eval("doc.getElementsByTagName('book').length", in: s) == 2)
        #expect(try eval("doc.getElementsByTagName('book')[0].getAttribute('title')", in: s) == "title1")
        #expect(try eval("doc.getElementsByTagName('book')[1].getAttribute('title')", in: s) == "title2")
        #expect(try eval("doc.getElementsByTagName('book')[0].getAttribute('year')", in: s) == "1999")
        #expect(try eval("doc.getElementsByTagName('book')[0].getAttribute('missing')", in: s) == .null)
        #expect(try eval("doc.getElementsByTagName('book')[0].hasAttribute('year')", in: s) == true)
        #expect(try eval("doc.getElementsByTagName('book')[0].getAttributeNames()", in: s) == ["title", "year"])
        #expect(try eval("doc.getElementsByTagName('*').length", in: s) == 5)
        #expect(try eval("doc.nodeType", in: s) == 9)
        #expect(try eval("doc.documentElement.tagName", in: s) == "books")
        #expect(try eval("doc.documentElement.childElementCount", in: s) == 3)
        #expect(try eval("doc.documentElement.children[2].nodeName", in: s) == "x:note")
        #expect(try eval("doc.documentElement.lastElementChild.localName", in: s) == "note")
        #expect(try eval("doc.documentElement.lastElementChild.prefix", in: s) == "x")
        #expect(try eval("doc.documentElement.lastElementChild.textContent", in: s) == "AB")
        #expect(try eval("doc.getElementsByTagName('book')[0].textContent", in: s) == "One & only")
        #expect(try eval("doc.getElementsByTagName('book')[1].firstChild.nodeValue", in: s) == "a <raw> text")
        #expect(try eval("doc.getElementsByTagName('book')[1].firstChild.nodeType", in: s) == 3)
        #expect(try eval("doc.getElementsByTagName('i')[0].parentNode.getAttribute('title')", in: s) == "title1")
        #expect(try eval("doc.getElementsByTagName('i')[0].ownerDocument.nodeName", in: s) == "#document")
        #expect(try eval("doc.documentElement.parentNode.nodeType", in: s) == 9)
        #expect(try eval("doc.parentNode", in: s) == .null)
        #expect(try eval("doc.textContent", in: s) == .null)
        // The comment is skipped; the white space between the books is a text node.
        #expect(try eval("doc.documentElement.childNodes.length", in: s) == 4)
        #expect(try eval("doc.documentElement.firstChild.tagName", in: s) == "book")
        #expect(try eval("doc.getElementsByTagName('nothing').length", in: s) == 0)
        #expect(try eval("doc.documentElement.firstChild.nextSibling.nodeType", in: s) == 3)
        #expect(try eval("doc.documentElement.firstChild.nextElementSibling.getAttribute('title')", in: s) == "title2")
        #expect(try eval("doc.documentElement.lastChild.previousElementSibling.tagName", in: s) == "book")
        #expect(try eval("doc.documentElement.lastChild.previousSibling.nodeName", in: s) == "book")
        #expect(try eval("doc.documentElement.lastChild.nextSibling", in: s) == .null)
        #expect(try eval("doc.documentElement.nextSibling", in: s) == .null)
    }

    @Test("R82: a node is its markup as a string and as data; a text node its characters; the value itself its markup as held")
    func nodesAreTheirMarkup() throws {
        let spaced = try session("<a v=\"1\t2\n3\" w=\"&#9;&#10;&#13;\">x\r\ny\rz</a>")
        #expect(try eval("doc.documentElement.getAttribute('v')", in: spaced) == "1 2 3")
        #expect(try eval("doc.documentElement.getAttribute('w')", in: spaced) == "\t\n\r")
        #expect(try eval("doc.documentElement.textContent", in: spaced) == "x\ny\nz")
        #expect(try eval("String(doc.documentElement)", in: spaced) == "<a v=\"1 2 3\" w=\"&#9;&#10;&#13;\">x\ny\nz</a>")
        let s = try session("<a k=\"1 &lt; 2\"><b>x &amp; y</b><c/></a>")
        #expect(try eval("String(doc.documentElement.firstChild)", in: s) == "<b>x &amp; y</b>")
        #expect(try eval("doc.documentElement", in: s) == .xml("<a k=\"1 &lt; 2\"><b>x &amp; y</b><c/></a>"))
        #expect(try eval("doc.getElementsByTagName('b')[0].firstChild", in: s) == "x & y")
        #expect(try eval("JSON.stringify(doc.getElementsByTagName('c')[0])", in: s) == "\"<c/>\"")
        // Reading the DOM keeps the value what it was.
        #expect(try s.value(of: "doc") == .xml("<a k=\"1 &lt; 2\"><b>x &amp; y</b><c/></a>"))
        #expect(try eval("doc + ''", in: s) == "<a k=\"1 &lt; 2\"><b>x &amp; y</b><c/></a>")
        #expect(try eval("typeof doc.documentElement", in: s) == "object")
        // A copy of the session reads the same tree.
        let copy = s.copy()
        #expect(try eval("doc.documentElement.getAttribute('k')", in: copy) == "1 < 2")
    }

    @Test("R82: markup that is not well-formed has no DOM: its DOM members are undefined, the value stays its markup; DOM methods are read-only", arguments: [
        "<a><b></a>", "<a>", "<a></b>", "<a x='1' x='2'/>", "<a>&nope;</a>", "text <a/>", "<a x=1/>", "<a/><", "<!DOCTYPE a><a/>",
    ])
    func malformedMarkupHasNoDOM(_ markup: String) throws {
        let s = try session(markup)
        #expect(try eval("doc.documentElement", in: s) == .undefined)
        #expect(try eval("typeof doc.getElementsByTagName", in: s) == "undefined")
        #expect(try eval("doc + ''", in: s) == .string(markup))
        #expect(failure("doc.getElementsByTagName('a')", in: s) != nil)
    }

    @Test("R82: a tree 300,000 elements deep is read, walked, written and released without recursion")
    func deepTree() throws {
        let depth = 300_000
        let markup = String(repeating: "<a>", count: depth) + "x" + String(repeating: "</a>", count: depth)
        do {
            let s = try session(markup)
            #expect(try eval("doc.getElementsByTagName('a').length", in: s) == .number(Double(depth)))
            #expect(try eval("doc.documentElement.textContent", in: s) == "x")
            #expect(try eval("String(doc.documentElement).length", in: s) == .number(Double(markup.utf16.count)))
        }
    }

    @Test("R82: markup cut and spliced at random never crashes the reader; what it reads writes back as markup that reads the same")
    func randomMarkup() throws {
        let pieces = [
            "<a>", "</a>", "<b k=\"v\">", "</b>", "<c/>", "text", " ", "&amp;", "&lt;", "&#65;", "&#x42;", "&bad;", "&",
            "<![CDATA[x<y]]>", "<!-- note -->", "<?pi x?>", "<d k='1' j=\"2\"/>", "<", ">", "\"", "'", "=", "/", "<!DOCTYPE a>",
            "<e:f xmlns:e=\"urn:e\">", "</e:f>", "]]>", "<a k=\"1\" k=\"2\">", "<g v=\"a\tb\nc\r\nd\"/>", "<h v='&#10;&#9;&#13;'/>",
            "\r\n", "\r", "&#13;",
        ]
        var seed: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(n))
        }
        var read = 0
        for _ in 0..<3_000 {
            var markup = ""
            for _ in 0..<(1 + next(12)) { markup += pieces[next(pieces.count)] }
            if next(3) == 0 { markup = "<root>" + markup + "</root>" }
            let s = try session(markup)
            let element = try eval("doc.documentElement", in: s)
            guard case .xml(let written) = element else {
                #expect(element == .undefined || element == .null, "\(markup)")
                #expect(try eval("doc + ''", in: s) == .string(markup))
                continue
            }
            read += 1
            let again = try session(written)
            #expect(try eval("doc.documentElement", in: again) == .xml(written), "\(markup) → \(written)")
            let elements = "doc.documentElement.getElementsByTagName('*').length"
            #expect(try eval(elements, in: s) == eval(elements, in: again), "\(markup) → \(written)")
        }
        // Most pieces spliced at random are not well-formed; enough are.
        #expect(read > 100)
    }

    @Test("R82: reading a DOM, and every node object made from it, is charged to the session's memory budget")
    func domIsChargedToTheBudget() throws {
        let session = ScriptSession(limits: ScriptLimits(maximumMemory: 1 << 20))
        try session.declare("doc", .xml("<r>" + String(repeating: "<a/>", count: 20_000) + "</r>"))
        // 20,000 elements of 4 bytes each: the markup is 80 KB, the node objects far more.
        #expect(try eval("doc.documentElement.childElementCount", in: session) == 20_000)
        #expect(failure("doc.getElementsByTagName('a')", in: session)?.kind == .memoryBudget)
        #expect(failure("doc.documentElement.childNodes", in: session)?.kind == .memoryBudget)
    }

    @Test("R82: the DOM has no setters: setAttribute is not a function, and a node's own members are its script's")
    func readOnly() throws {
        let s = try session("<a/>")
        #expect(failure("doc.documentElement.setAttribute('k', 'v')", in: s)?.kind == .type)
        #expect(try eval("(function () { var e = doc.documentElement; e.mark = 1; return e.mark; })()", in: s) == 1)
        #expect(try eval("doc.documentElement.getAttribute('k')", in: s) == .null)
    }
}
