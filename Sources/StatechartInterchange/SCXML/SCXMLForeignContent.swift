import Statechart
/// An element of an SCXML document that can carry content of other namespaces, named by what it
/// became in the chart, so that ``SCXMLExporter`` can write that content back on the same element.
///
/// States are named by their id (the generated one for a state without an `id`); transitions by
/// their source state and their position among its `<transition>` children; executable content by
/// its container and position.
public indirect enum SCXMLElementPath: Hashable, Sendable, CustomStringConvertible {
    /// The `<scxml>` root.
    case root
    /// A `<state>`, `<parallel>`, `<final>` or `<history>` with this id.
    case state(String)
    /// The `index`-th `<transition>` child (from 0) of the state with id `state`.
    case transition(state: String, index: Int)
    /// The `<initial>` element of the state with this id.
    case initial(of: String)
    /// The `<transition>` of a state's `<initial>` element, or the default transition of a `<history>`.
    case defaultTransition(of: String)
    /// The `index`-th `<onentry>` (from 0) of the state with id `state`.
    case onEntry(state: String, index: Int)
    /// The `index`-th `<onexit>` (from 0) of the state with id `state`.
    case onExit(state: String, index: Int)
    /// The `index`-th action (from 0) of a transition, `<onentry>` or `<onexit>`.
    case action(in: SCXMLElementPath, index: Int)

    /// A short description, such as `transition 0 of 'a'`.
    public var description: String {
        switch self {
        case .root: "<scxml>"
        case .state(let id): "state '\(id)'"
        case .transition(let state, let index): "transition \(index) of '\(state)'"
        case .initial(let id): "<initial> of '\(id)'"
        case .defaultTransition(let id): "default transition of '\(id)'"
        case .onEntry(let state, let index): "onentry \(index) of '\(state)'"
        case .onExit(let state, let index): "onexit \(index) of '\(state)'"
        case .action(let container, let index): "action \(index) of \(container)"
        }
    }
}

/// A namespace binding: `xmlns:prefix="uri"`, or `xmlns="uri"` when the prefix is empty.
public struct SCXMLNamespaceBinding: Hashable, Sendable {
    /// The prefix, empty for the default namespace.
    public var prefix: String
    /// The namespace name; empty to undeclare the default namespace (`xmlns=""`).
    public var uri: String

    /// Creates a binding.
    ///
    /// - Parameters:
    ///   - prefix: The prefix, empty for the default namespace.
    ///   - uri: The namespace name.
    public init(prefix: String, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }

    /// The declaration as an attribute: `xmlns:qt="…"` or `xmlns="…"`.
    public var declaration: String {
        (prefix.isEmpty ? "xmlns" : "xmlns:" + prefix) + "=\"" + SCXMLText.escape(uri) + "\""
    }
}

/// An attribute of another namespace on an SCXML element, such as Qt Creator's `qt:color`.
public struct SCXMLForeignAttribute: Hashable, Sendable {
    /// The attribute as written in the source, name, `=` and quoted value (`qt:color="#ff0000"`).
    public var text: String
    /// The binding of the attribute's prefix where it was written.
    public var namespace: SCXMLNamespaceBinding

    /// Creates an attribute.
    ///
    /// - Parameters:
    ///   - text: The attribute as it is to be written: `prefix:name="value"`, escaped.
    ///   - namespace: The binding of its prefix.
    public init(text: String, namespace: SCXMLNamespaceBinding) {
        self.text = text
        self.namespace = namespace
    }
}

/// An element of another namespace inside an SCXML element, such as Qt Creator's
/// `<qt:editorinfo …/>`, kept with everything inside it.
public struct SCXMLForeignElement: Hashable, Sendable {
    /// The element as written in the source, from its `<` to the end of its end tag.
    public var text: String
    /// The namespace bindings its names use that are declared outside it, as they were where it
    /// was written. The exporter declares any of them that the exported document would not.
    public var namespaces: [SCXMLNamespaceBinding]

    /// Creates an element.
    ///
    /// - Parameters:
    ///   - text: The element as it is to be written (well-formed XML).
    ///   - namespaces: The bindings of the prefixes it uses without declaring them.
    public init(text: String, namespaces: [SCXMLNamespaceBinding] = []) {
        self.text = text
        self.namespaces = namespaces
    }
}

/// The content of other namespaces on one SCXML element.
public struct SCXMLForeignMarkup: Hashable, Sendable {
    /// Namespace declarations written on the element itself (other than the SCXML namespace's).
    public var namespaceDeclarations: [SCXMLNamespaceBinding]
    /// Attributes of other namespaces, in source order.
    public var attributes: [SCXMLForeignAttribute]
    /// Child elements of other namespaces, in source order.
    public var elements: [SCXMLForeignElement]

    /// Creates the markup of one element.
    ///
    /// - Parameters:
    ///   - namespaceDeclarations: Declarations to write on the element.
    ///   - attributes: Foreign attributes.
    ///   - elements: Foreign child elements.
    public init(
        namespaceDeclarations: [SCXMLNamespaceBinding] = [], attributes: [SCXMLForeignAttribute] = [],
        elements: [SCXMLForeignElement] = []
    ) {
        self.namespaceDeclarations = namespaceDeclarations
        self.attributes = attributes
        self.elements = elements
    }

    /// Whether there is nothing to write.
    public var isEmpty: Bool { namespaceDeclarations.isEmpty && attributes.isEmpty && elements.isEmpty }
}

/// What an SCXML document carried in other namespaces — editor annotations such as Qt Creator's
/// `qt:editorinfo` elements and `qt:` attributes — by the element it was on.
///
/// The loader ignores this content when it builds the chart;
/// ``SCXMLDocument/loadDocument(data:name:options:)`` returns it beside the chart, and
/// ``SCXMLExporter/export(_:foreignContent:)`` writes it back, so that a chart survives a round
/// trip through this library with its editor's annotations. Foreign child elements are written
/// first inside their parent, in their source order.
public struct SCXMLForeignContent: Hashable, Sendable {
    /// The markup by element.
    public var markup: [SCXMLElementPath: SCXMLForeignMarkup]

    /// Creates a map, empty by default.
    ///
    /// - Parameter markup: The markup by element.
    public init(_ markup: [SCXMLElementPath: SCXMLForeignMarkup] = [:]) {
        self.markup = markup
    }

    /// The markup of one element (empty when it has none).
    public subscript(path: SCXMLElementPath) -> SCXMLForeignMarkup {
        get { markup[path] ?? SCXMLForeignMarkup() }
        set { markup[path] = newValue.isEmpty ? nil : newValue }
    }

    /// Whether no element has foreign content.
    public var isEmpty: Bool { markup.isEmpty }
}

/// A chart loaded from SCXML together with the content of other namespaces that it ignored.
public struct SCXMLLoadedDocument: Sendable {
    /// The chart.
    public var chart: SCXMLChart
    /// The content of other namespaces, by element.
    public var foreignContent: SCXMLForeignContent
    /// The expressions and scripts of the data model that do not parse, with their lines (rule
    /// R85): the chart loads, and each raises `error.execution` when it runs.
    public var expressionDiagnostics: [ChartDiagnostic]

    /// Creates a loaded document.
    ///
    /// - Parameters:
    ///   - chart: The chart.
    ///   - foreignContent: The content of other namespaces.
    ///   - expressionDiagnostics: The expressions that do not parse.
    public init(chart: SCXMLChart, foreignContent: SCXMLForeignContent, expressionDiagnostics: [ChartDiagnostic] = []) {
        self.chart = chart
        self.foreignContent = foreignContent
        self.expressionDiagnostics = expressionDiagnostics
    }
}

/// XML text helpers shared by the exporter and the foreign-content types.
enum SCXMLText {
    /// Escapes an attribute value for double quotes.
    static func escape(_ value: String) -> String {
        var s = ""
        for c in value.unicodeScalars {
            switch c {
            case "&": s += "&amp;"
            case "<": s += "&lt;"
            case ">": s += "&gt;"
            case "\"": s += "&quot;"
            case "\n": s += "&#10;"
            case "\r": s += "&#13;"
            case "\t": s += "&#9;"
            default: s.unicodeScalars.append(c)
            }
        }
        return s
    }
}
