import Foundation

/// Reads the files `<script src>`, `<data src>` and `<invoke src>` name (rules R84, R86): a path or a `file:` URL,
/// relative to the chart's folder (``SCXMLLoadOptions/baseURL``), bounded like the chart itself
/// (``SCXMLLimits/maximumFileSize``). Nothing else is fetched: no network, and no file when the
/// chart was not loaded from one and no base was given.
struct SCXMLExternalSources: Sendable {
    var baseURL: URL?
    var limit: Int = SCXMLLimits.default.maximumFileSize

    /// The text of the file `src` names, or why it cannot be read.
    func read(_ src: String) -> Result<String, ReadFailure> {
        let url: URL
        switch self.url(for: src) {
        case .success(let u): url = u
        case .failure(let f): return .failure(f)
        }
        do throws(SCXMLError) {
            let data = try SCXMLDocument.read(url, limit: limit)
            if data.count > limit { return .failure(ReadFailure("is larger than \(limit) bytes")) }
            guard let text = String(data: data, encoding: .utf8) else { return .failure(ReadFailure("is not UTF-8 text")) }
            return .success(text)
        } catch {
            return .failure(ReadFailure("cannot be read: \(error.description)"))
        }
    }

    /// The file `src` names (a path or a `file:` URL, relative to ``baseURL``), or why none.
    func url(for src: String) -> Result<URL, ReadFailure> {
        var path = src
        if path.hasPrefix("file://") {
            path = String(path.dropFirst("file://".count))
        } else if path.hasPrefix("file:") {
            path = String(path.dropFirst("file:".count))
        } else if let colon = path.firstIndex(of: ":"), path[..<colon].allSatisfy({ $0.isLetter }), path[..<colon].count > 1 {
            return .failure(ReadFailure("is not a file: only paths and file: URLs are read"))
        }
        guard !path.isEmpty else { return .failure(ReadFailure("names no file")) }
        let url: URL
        if path.hasPrefix("/") {
            url = URL(fileURLWithPath: path)
        } else if let baseURL {
            url = baseURL.appendingPathComponent(path)
        } else {
            return .failure(ReadFailure("cannot be read: the chart was not loaded from a file and no base URL was given"))
        }
        return .success(url)
    }

    /// Why a `src` could not be read.
    struct ReadFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}

extension SCXMLLoadOptions {
    /// These options with ``baseURL`` set to the folder of `file` when it is not set.
    func relative(to file: URL) -> SCXMLLoadOptions {
        var options = self
        if options.baseURL == nil { options.baseURL = file.deletingLastPathComponent() }
        return options
    }
}
