import Foundation
import Statechart
import StatechartECMAScript

/// The extended state of a chart loaded from SCXML: its data model's values (rule R82).
///
/// `Codable` (every field), so a snapshot of a running SCXML chart encodes (rule R89); its data
/// reads and writes as Swift values with ``value(of:as:)`` and ``setValue(_:for:)`` (rule R90).
public struct SCXMLContext: Hashable, Sendable, Codable {
    /// The chart's data (`datamodel="ecmascript"`): its `<data>` and the system variables. Empty,
    /// and never allocated, under the null data model.
    public var data = ECMAScriptDataModel()
    /// The session's id (`_sessionid`), set when the machine starts.
    public internal(set) var sessionID = ""
    /// Counts the send ids made for `<send idlocation>`.
    var sendCounter = 0
    /// The states whose `<data>` has been bound (late binding binds on first entry).
    var boundStates: Set<String> = []
    /// The `<donedata>` of the final state last entered in each compound state, by the compound
    /// state's id: the data of its `done.state.<id>` event.
    var doneData: [String: DataValue] = [:]
    /// How this session is connected to the others of its ``SCXMLSession`` (rule R86).
    var links = SCXMLSessionLinks()

    /// Creates the context; the chart fills it when it starts.
    public init() {}
}

/// A chart loaded from SCXML: events are their names, and the context holds its data.
public typealias SCXMLChart = Chart<SCXMLEvent, SCXMLContext>

/// Loads SCXML documents (W3C SCXML 1.0, the null and the ECMAScript data models) into charts.
///
/// Supported: `<scxml>` (`initial`, `name`, `version`, `datamodel` — `null` or `ecmascript` —,
/// `binding`), `<state>`, `<parallel>`, `<final>`, `<history type>`, `<initial>`,
/// `<transition event cond target type>`, `<onentry>`, `<onexit>`, `<raise>`, `<send>`,
/// `<cancel>`, `<log>` and `<if>`/`<elseif>`/`<else>`. Under the null data model `cond` accepts
/// `In('id')` combined with `!`/`not`, `&&`/`and`, `||`/`or`, parentheses, `true` and `false`, and
/// the data elements and expression attributes are refused. Under `datamodel="ecmascript"`,
/// `<datamodel>`, `<data>`, `<assign>`, `<script>`, `<foreach>`, `<param>`, `<content>`,
/// `<donedata>` and every expression attribute work as Docs/DataModel.md says (rule R82).
/// States without an `id` get `_<element><n>`, `n` counting state elements in document order.
///
/// `<invoke>` and `<finalize>` are read too: a chart that invokes runs in an ``SCXMLSession`` (or
/// an ``AsyncSCXMLSession``), which starts the invoked documents as child sessions (rule R86). A
/// document without a `datamodel` attribute runs under the ECMAScript data model when it uses data.
/// Refused, with an ``SCXMLError`` naming the element and its line:
/// malformed XML, a `<!DOCTYPE>` (no entity is ever declared or resolved), and a chart that does
/// not compile (an unknown target…).
/// Elements and attributes of other namespaces (editor annotations) are ignored by `load`;
/// `loadDocument` returns them beside the chart (``SCXMLForeignContent``) for a round trip.
///
/// Every `load` takes ``SCXMLLoadOptions`` whose ``SCXMLLimits`` bound the file size, the nesting
/// depth and the numbers of states and elements; the defaults admit every real chart. A document
/// over a limit is refused with ``SCXMLError/limitExceeded(_:limit:element:line:)``. Reading is
/// iterative: nesting depth costs no stack.
public enum SCXMLDocument {
    /// Loads a document from a file. The chart is named by the `name` attribute, or else the file name.
    ///
    /// The file's bytes are released once they are parsed, so a large document is not held while
    /// its chart is built. A chart that does not compile reads the file again to name the element
    /// its error points at; if the file changed meanwhile, the error names none.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - options: How to load it; its limits bound what is read (the file is never read beyond
    ///     ``SCXMLLimits/maximumFileSize``).
    public static func load(contentsOf url: URL, options: SCXMLLoadOptions = .init()) throws(SCXMLError)
        -> SCXMLChart
    {
        let data = try read(url, limit: options.limits.maximumFileSize)
        let fingerprint = DocumentFingerprint(data)
        let options = options.relative(to: url)
        // The file's bytes are released as soon as its tree is read, rather than held, as
        // `load(data:)` must hold its caller's, until the chart is compiled: for a large document
        // they were a tenth of the peak. A chart that does not compile reads the file again to
        // name the element the error points at, if the file still has the bytes that were loaded.
        let definition = try definition(
            consuming: consume data, name: url.deletingPathExtension().lastPathComponent, options: options)
        return try compile(consume definition) { () throws(SCXMLError) -> XMLTree? in
            try treeAgain(url, as: fingerprint, limits: options.limits)
        }
    }

    /// The tree of the file at `url` read again, or `nil` when the file no longer has the bytes
    /// that were loaded (`fingerprint`), or cannot be read.
    static func treeAgain(_ url: URL, as fingerprint: DocumentFingerprint, limits: SCXMLLimits) throws(SCXMLError)
        -> XMLTree?
    {
        guard let again = try? read(url, limit: limits.maximumFileSize), DocumentFingerprint(again) == fingerprint
        else { return nil }
        return try XMLTreeReader.read(again, limits: limits)
    }

    /// Loads a document from UTF-8 data.
    ///
    /// - Parameters:
    ///   - data: The document.
    ///   - name: The chart's name when the document has no `name` attribute.
    ///   - options: How to load it (the limits on the document).
    public static func load(data: Data, name: String = "scxml", options: SCXMLLoadOptions = .init())
        throws(SCXMLError) -> SCXMLChart
    {
        // The tree and the builder are gone before compiling: the peak holds the definition and
        // the chart, not the document's tree too. An error re-reads the tree to name its element.
        let definition = try SCXMLDocument.definition(data: data, name: name, options: options)
        return try compile(consume definition) { () throws(SCXMLError) in try XMLTreeReader.read(data, limits: options.limits) }
    }

    /// Loads a document from a string.
    ///
    /// - Parameters:
    ///   - string: The document.
    ///   - name: The chart's name when the document has no `name` attribute.
    ///   - options: How to load it (the limits on the document).
    public static func load(string: String, name: String = "scxml", options: SCXMLLoadOptions = .init())
        throws(SCXMLError) -> SCXMLChart
    {
        try load(data: Data(string.utf8), name: name, options: options)
    }

    /// Loads a document from a file together with its content of other namespaces (editor
    /// annotations), which ``SCXMLExporter/export(_:foreignContent:)`` writes back.
    ///
    /// - Parameters:
    ///   - url: The file.
    ///   - options: How to load it (the limits on the document).
    public static func loadDocument(contentsOf url: URL, options: SCXMLLoadOptions = .init()) throws(SCXMLError)
        -> SCXMLLoadedDocument
    {
        let data = try read(url, limit: options.limits.maximumFileSize)
        return try loadDocument(
            data: data, name: url.deletingPathExtension().lastPathComponent, options: options.relative(to: url))
    }

    /// Loads a document from UTF-8 data together with its content of other namespaces.
    ///
    /// - Parameters:
    ///   - data: The document.
    ///   - name: The chart's name when the document has no `name` attribute.
    ///   - options: How to load it (the limits on the document).
    public static func loadDocument(data: Data, name: String = "scxml", options: SCXMLLoadOptions = .init())
        throws(SCXMLError) -> SCXMLLoadedDocument
    {
        // The foreign content is collected from the same UTF-8 bytes the tree was read from (the
        // transcoding of a document in another encoding), so its encoding is read once.
        try XMLTreeReader.withUTF8(data, limits: options.limits) { (utf8) throws(SCXMLError) in
            let tree = try XMLTreeReader.tree(ofUTF8: utf8, limits: options.limits)
            var builder = SCXMLBuilder(tree: tree, options: options)
            let chart = try compile(try builder.build(defaultName: name)) { () throws(SCXMLError) in tree }
            let foreign = ForeignContentReader.read(utf8, tree: tree, paths: builder.elementPaths())
            let expressions = builder.dataModel == .ecmascript ? SCXMLExpressionCheck.diagnostics(tree) : []
            return SCXMLLoadedDocument(chart: chart, foreignContent: foreign, expressionDiagnostics: expressions)
        }
    }

    /// Loads a document from a string together with its content of other namespaces.
    ///
    /// - Parameters:
    ///   - string: The document.
    ///   - name: The chart's name when the document has no `name` attribute.
    ///   - options: How to load it (the limits on the document).
    public static func loadDocument(string: String, name: String = "scxml", options: SCXMLLoadOptions = .init())
        throws(SCXMLError) -> SCXMLLoadedDocument
    {
        try loadDocument(data: Data(string.utf8), name: name, options: options)
    }

    /// Compiles a definition read from the document that `tree` reads again, naming the element an
    /// error points at.
    ///
    /// The definition is consumed, so that compiling releases it before building the chart's
    /// tables (``Chart/init(_:)``). `readTree` returns `nil` when the document cannot be read
    /// again as it was loaded (a file changed since): the error then names no element.
    private static func compile(
        _ definition: consuming ChartDefinition<SCXMLEvent, SCXMLContext>, tree readTree: () throws(SCXMLError) -> XMLTree?
    ) throws(SCXMLError) -> SCXMLChart {
        do {
            return try Chart(consume definition)
        } catch {
            if case .historyDefaultCycle(let cycle, let location) = error {
                // Said in the document's terms: the <history> element that closes the cycle.
                throw .invalidElement(
                    "history", line: location?.line ?? 0,
                    reason: "its default entry leads back to it through history states only ("
                        + cycle.joined(separator: " → ") + "), so entering it would never end")
            }
            // Name the element the error points at: states and transitions carry their tag's position;
            // an error without one is about the chart itself, so about <scxml> (rule R76).
            guard let tree = try readTree() else {
                throw .invalidChart(error, element: nil, line: error.location?.line)
            }
            guard let location = error.location else {
                throw .invalidChart(error, element: tree.elements[0].name, line: tree.elements[0].location.line)
            }
            let element = tree.elements.first { $0.location == location }?.name
            throw .invalidChart(error, element: element, line: location.line)
        }
    }

    /// Reads a document into a chart definition without compiling it (so a caller can add to it).
    ///
    /// - Parameters:
    ///   - data: The document.
    ///   - name: The chart's name when the document has no `name` attribute.
    ///   - options: How to load it (the limits on the document).
    public static func definition(data: Data, name: String = "scxml", options: SCXMLLoadOptions = .init())
        throws(SCXMLError) -> ChartDefinition<SCXMLEvent, SCXMLContext>
    {
        try definition(consuming: data, name: name, options: options)
    }

    /// ``definition(data:name:options:)`` of bytes it owns, released once their tree is read.
    private static func definition(consuming data: consuming Data, name: String, options: SCXMLLoadOptions)
        throws(SCXMLError) -> ChartDefinition<SCXMLEvent, SCXMLContext>
    {
        let tree = try XMLTreeReader.read(consume data, limits: options.limits)
        var builder = SCXMLBuilder(tree: consume tree, options: options, releasesCheckedTree: true)
        return try builder.build(defaultName: name)
    }

    /// Reads a file, at most `limit` bytes of it: a larger file (or an endless stream) is refused
    /// without reading the rest.
    static func read(_ url: URL, limit: Int) throws(SCXMLError) -> Data {
        let handle: FileHandle
        do {
            handle = try FileHandle(forReadingFrom: url)
        } catch {
            throw .unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        defer { try? handle.close() }
        var data = Data()
        do {
            // Read in chunks up to one byte past the limit, which tells a file that is too large.
            let wanted = limit == .max ? limit : limit + 1
            while data.count < wanted {
                guard let chunk = try handle.read(upToCount: min(wanted - data.count, 1 << 22)), !chunk.isEmpty
                else { break }
                data.append(chunk)
            }
        } catch {
            throw .unreadable(path: url.path, reason: (error as NSError).localizedDescription)
        }
        if data.count > limit { throw .limitExceeded(.fileSize, limit: limit, element: nil, line: nil) }
        return data
    }

    /// Parses an SCXML `delay` value (a CSS2 time such as `500ms`, `2s`, `.5s` or `1.5s`).
    ///
    /// - Returns: The duration, or `nil` when the text is not a non-negative number followed by `ms` or `s`.
    public static func duration(fromDelay text: String) -> Duration? {
        try? SCXMLDelay.parse(text).get()
    }
}

/// What tells a file read again from the one that was loaded: its size and a hash of its bytes
/// (eight at a time, FNV-1a's constants), so that an error found after the bytes were released
/// names the element of the document that was loaded, or none.
struct DocumentFingerprint: Equatable {
    let count: Int
    let hash: UInt64

    init(_ data: Data) {
        count = data.count
        hash = data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> UInt64 in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            var i = 0
            while i + 8 <= bytes.count {
                h = (h ^ bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0x100_0000_01b3
                i += 8
            }
            while i < bytes.count {
                h = (h ^ UInt64(bytes[i])) &* 0x100_0000_01b3
                i += 1
            }
            return h
        }
    }
}
