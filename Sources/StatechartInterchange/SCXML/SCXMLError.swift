import Statechart

/// Why an SCXML document could not be loaded. Every case that comes from the document names the
/// element involved and the line it starts on.
public enum SCXMLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, reason: String)
    /// The document is not well-formed XML (or is empty, or has content after the root element).
    case malformedXML(String, line: Int)
    /// The document is not encoded in UTF-8 (or an ASCII-compatible encoding).
    case unsupportedEncoding(String)
    /// The document has a `<!DOCTYPE>` (and so possibly entity declarations): refused, never resolved.
    case documentTypeDeclaration(line: Int)
    /// The document has no root element.
    case emptyDocument
    /// The root element is not `<scxml>` in the SCXML namespace (or in no namespace).
    case notSCXML(root: String, namespace: String, line: Int)
    /// An SCXML element this loader does not support (it needs a data model, or invokes services).
    case unsupportedElement(String, line: Int, reason: String)
    /// An element in the SCXML namespace that SCXML does not define.
    case unknownElement(String, line: Int)
    /// An element where SCXML does not allow it (inside this parent).
    case misplacedElement(String, parent: String, line: Int)
    /// An element that breaks a structural rule of SCXML; `reason` says which.
    case invalidElement(String, line: Int, reason: String)
    /// Text inside an element that takes none.
    case unexpectedText(element: String, line: Int)
    /// An attribute this element does not have, or that this loader does not support.
    case unsupportedAttribute(String, element: String, line: Int)
    /// A required attribute is missing.
    case missingAttribute(String, element: String, line: Int)
    /// An attribute value that is not valid; `reason` says why.
    case invalidAttributeValue(String, attribute: String, element: String, line: Int, reason: String)
    /// An expression the null data model cannot evaluate (its only expression is `In('id')`).
    case unsupportedExpression(String, attribute: String, element: String, line: Int)
    /// The document is well-formed SCXML but not a valid chart (an unknown target, a duplicate id…).
    case invalidChart(ChartError, element: String?, line: Int?)
    /// The document exceeds one of the ``SCXMLLimits``: `limit` is the value in force; `element` and
    /// `line` say where it was hit (both `nil` for the file size, checked before parsing).
    case limitExceeded(SCXMLLimit, limit: Int, element: String?, line: Int?)

    /// The line the problem is on (1-based), when known.
    public var line: Int? {
        switch self {
        case .unreadable, .unsupportedEncoding, .emptyDocument: return nil
        case .malformedXML(_, let l), .documentTypeDeclaration(let l), .notSCXML(_, _, let l),
            .unsupportedElement(_, let l, _), .unknownElement(_, let l), .misplacedElement(_, _, let l),
            .invalidElement(_, let l, _), .unexpectedText(_, let l), .unsupportedAttribute(_, _, let l),
            .missingAttribute(_, _, let l),
            .invalidAttributeValue(_, _, _, let l, _), .unsupportedExpression(_, _, _, let l):
            return l
        case .invalidChart(_, _, let l), .limitExceeded(_, _, _, let l): return l
        }
    }

    /// The element the problem is in, when known.
    public var element: String? {
        switch self {
        case .unreadable, .malformedXML, .unsupportedEncoding, .emptyDocument: return nil
        case .documentTypeDeclaration: return "!DOCTYPE"
        case .notSCXML(let root, _, _): return root
        case .unsupportedElement(let e, _, _), .unknownElement(let e, _), .misplacedElement(let e, _, _),
            .invalidElement(let e, _, _):
            return e
        case .unexpectedText(let e, _), .unsupportedAttribute(_, let e, _), .missingAttribute(_, let e, _),
            .invalidAttributeValue(_, _, let e, _, _), .unsupportedExpression(_, _, let e, _):
            return e
        case .invalidChart(_, let e, _), .limitExceeded(_, _, let e, _): return e
        }
    }

    /// A one-line explanation naming the element and line.
    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        case .malformedXML(let message, let line):
            return "malformed XML at line \(line): \(message)"
        case .unsupportedEncoding(let what):
            return "unsupported encoding: \(what); use UTF-8"
        case .documentTypeDeclaration(let line):
            return "<!DOCTYPE> at line \(line) is not allowed: DTDs and entity declarations are refused"
        case .emptyDocument:
            return "the document is empty: expected an <scxml> root element"
        case .notSCXML(let root, let ns, let line):
            let inNamespace = ns.isEmpty ? "" : " in namespace \(ns)"
            return
                "the root element <\(root)>\(inNamespace) at line \(line) is not <scxml> in namespace \(SCXMLNamespace.uri)"
        case .unsupportedElement(let e, let line, let reason):
            return "<\(e)> at line \(line) is unsupported: \(reason)"
        case .unknownElement(let e, let line):
            return "<\(e)> at line \(line) is not an SCXML element"
        case .misplacedElement(let e, let parent, let line):
            return "<\(e)> at line \(line) is not allowed inside <\(parent)>"
        case .invalidElement(let e, let line, let reason):
            return "<\(e)> at line \(line): \(reason)"
        case .unexpectedText(let e, let line):
            return "<\(e)> at line \(line) cannot contain text"
        case .unsupportedAttribute(let a, let e, let line):
            return "<\(e)> at line \(line): unsupported attribute '\(a)'"
        case .missingAttribute(let a, let e, let line):
            return "<\(e)> at line \(line): missing attribute '\(a)'"
        case .invalidAttributeValue(let v, let a, let e, let line, let reason):
            return "<\(e)> at line \(line): invalid \(a)=\"\(v)\": \(reason)"
        case .unsupportedExpression(let x, let a, let e, let line):
            return "<\(e)> at line \(line): unsupported expression in \(a)=\"\(x)\": "
                + "the null data model only evaluates In('id'), !, &&, ||, parentheses, true and false"
        case .invalidChart(let error, let e, let line):
            let prefix = e.map { "<\($0)>" + (line.map { " at line \($0)" } ?? "") + ": " } ?? ""
            return prefix + error.description
        case .limitExceeded(let limit, let value, let e, let line):
            let place =
                e.map { " at <\($0)>" + (line.map { " (line \($0))" } ?? "") } ?? (line.map { " at line \($0)" } ?? "")
            return "the document exceeds the \(limit) of \(value) \(limit.unit)\(place); "
                + "raise SCXMLLimits.\(limit.propertyName) to load it"
        }
    }
}

/// The SCXML namespace.
enum SCXMLNamespace {
    static let uri = "http://www.w3.org/2005/07/scxml"
}

extension ChartError {
    /// The location a compile error points at, if any.
    var location: SourceLocation? {
        switch self {
        case .duplicateStateID(_, _, let second): return second
        case .unknownTarget(_, _, let l), .emptyStateID(_, let l), .historyOutsideCompound(_, let l),
            .missingInitialState(_, let l), .invalidInitialTarget(_, _, let l), .invalidStructure(_, _, let l),
            .historyDefaultCycle(_, let l):
            return l
        case .attachCycle, .ambiguousTarget: return nil
        }
    }
}
