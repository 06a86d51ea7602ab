import Foundation
/// Bounds on what the SCXML loader accepts, so that a hostile document costs bounded time and
/// memory. A document that exceeds one is refused with ``SCXMLError/limitExceeded(_:limit:element:line:)``
/// naming the limit, the element and the line where it was hit; the loader stops reading there.
///
/// The defaults admit every real chart — a generated chart of 1,000,000 states loads with them
/// (a test checks it) — while refusing documents whose size alone would exhaust a machine.
/// Raise them to load something bigger, or lower them for untrusted input:
///
/// ```swift
/// var options = SCXMLLoadOptions()
/// options.limits.maximumFileSize = 1 << 20  // 1 MiB
/// options.limits.maximumStates = 10_000
/// let chart = try SCXMLDocument.load(data: upload, options: options)
/// ```
///
/// Documents never declare or resolve entities (a `<!DOCTYPE>` is refused before parsing), so
/// entity expansion needs no limit.
public struct SCXMLLimits: Hashable, Sendable {
    /// The largest document accepted, in bytes (default 256 MiB). Checked before parsing; a file is
    /// never read beyond this size.
    public var maximumFileSize: Int
    /// The deepest nesting of elements accepted, counting the root as 1 and elements of other
    /// namespaces too (default 1,000). Every level of states adds at least one. Reading costs no
    /// stack at any depth; compiling a chain of nested states takes time and memory quadratic in
    /// its depth, which this bounds.
    public var maximumNestingDepth: Int
    /// The most state elements accepted: `<state>`, `<parallel>`, `<final>` and `<history>`
    /// (default 2,000,000; a chart of 1,000,000 states takes about 1 GB while it loads).
    public var maximumStates: Int
    /// The most elements accepted overall, of every namespace, the root included (default
    /// 8,000,000). Whatever it is set to, a document of more than 2,147,483,647 elements, or of
    /// more than 2,147,483,647 attributes in all, is refused as over this limit, the error naming
    /// that bound: the tree indexes its elements and their attributes in 32 bits.
    public var maximumElements: Int

    /// Creates limits; every argument defaults to the default limit.
    public init(
        maximumFileSize: Int = 256 << 20, maximumNestingDepth: Int = 1_000, maximumStates: Int = 2_000_000,
        maximumElements: Int = 8_000_000
    ) {
        self.maximumFileSize = maximumFileSize
        self.maximumNestingDepth = maximumNestingDepth
        self.maximumStates = maximumStates
        self.maximumElements = maximumElements
    }

    /// The default limits.
    public static let `default` = SCXMLLimits()

    /// No limit at all (each is `Int.max`): for trusted documents only.
    public static let unlimited = SCXMLLimits(
        maximumFileSize: .max, maximumNestingDepth: .max, maximumStates: .max, maximumElements: .max)
}

/// Which of the ``SCXMLLimits`` a document exceeded.
public enum SCXMLLimit: String, Hashable, Sendable, CustomStringConvertible {
    /// ``SCXMLLimits/maximumFileSize``.
    case fileSize
    /// ``SCXMLLimits/maximumNestingDepth``.
    case nestingDepth
    /// ``SCXMLLimits/maximumStates``.
    case states
    /// ``SCXMLLimits/maximumElements``.
    case elements

    /// The limit's name and unit, as in an error message.
    public var description: String {
        switch self {
        case .fileSize: return "maximum file size"
        case .nestingDepth: return "maximum nesting depth"
        case .states: return "maximum number of states"
        case .elements: return "maximum number of elements"
        }
    }

    /// The ``SCXMLLimits`` property that sets this limit.
    public var propertyName: String {
        switch self {
        case .fileSize: return "maximumFileSize"
        case .nestingDepth: return "maximumNestingDepth"
        case .states: return "maximumStates"
        case .elements: return "maximumElements"
        }
    }

    /// What the limit counts.
    var unit: String {
        switch self {
        case .fileSize: return "bytes"
        case .nestingDepth: return "levels"
        case .states: return "states"
        case .elements: return "elements"
        }
    }
}

/// How ``SCXMLDocument`` loads a document.
public struct SCXMLLoadOptions: Hashable, Sendable {
    /// The bounds on the document (``SCXMLLimits/default`` unless set).
    public var limits: SCXMLLimits
    /// Whether state ids must be XML IDs (NCNames), as the W3C schema and Qt require (rule R76).
    /// Default `true`; turn it off only to read documents of tools that write other ids (`id="1"`).
    public var requiresXMLIDs: Bool
    /// The folder that `<script src>` and `<data src>` are read relative to (rule R84). Loading from
    /// a file sets it to the file's folder when it is `nil`; without it, a `src` is refused.
    public var baseURL: URL?
    /// How many inline `<invoke>` documents enclose the one being loaded.
    var invokeNesting = 0

    /// Creates options.
    ///
    /// - Parameters:
    ///   - limits: The bounds on the document.
    ///   - requiresXMLIDs: Whether state ids must be XML IDs (rule R76).
    ///   - baseURL: The folder `src` attributes are read relative to (rule R84).
    public init(limits: SCXMLLimits = .default, requiresXMLIDs: Bool = true, baseURL: URL? = nil) {
        self.limits = limits
        self.requiresXMLIDs = requiresXMLIDs
        self.baseURL = baseURL
    }
}
