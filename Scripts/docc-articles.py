#!/usr/bin/env python3
"""Regenerates the DocC articles of Sources/Statechart/Statechart.docc from Docs/ and README.md,
so the repository's documents and the DocC catalog say the same thing. Run it after editing
Docs/; `.ci/run` checks that the committed articles are up to date (--check)."""
import os, re, sys, shutil

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
docs = os.path.join(root, "Docs")
catalog = os.path.join(root, "Sources", "Statechart", "Statechart.docc")

def read(path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()

def body_without_title(text):
    lines = text.splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    return "\n".join(lines).strip() + "\n"

def fix_links(text):
    # Links to other Docs pages become plain text naming the repository file.
    text = re.sub(r"\[([^\]]+)\]\((?!https?:)([A-Za-z/]+)\.md\)", r"\1 (`Docs/\2.md` in the repository)", text)
    # Images live in the catalog's Resources folder under their file name.
    text = re.sub(r"!\[([^\]]*)\]\((?:Docs/)?Diagrams/([^)]+)\.svg\)", r"![\1](\2)", text)
    return text

def article(title, abstract, text):
    # DocC reads ``x`` as a symbol link: quadruple-backtick code spans become plain words.
    text = text.replace("```` ```mermaid ````", "`mermaid` code")
    return f"# {title}\n\n{abstract}\n\n{fix_links(text)}"

def sections(text, level="## "):
    parts, current, name = [], [], None
    for line in text.splitlines():
        if line.startswith(level):
            if name is not None:
                parts.append((name, "\n".join(current).strip() + "\n"))
            name, current = line[len(level):].strip(), []
        elif name is not None:
            current.append(line)
    if name is not None:
        parts.append((name, "\n".join(current).strip() + "\n"))
    return parts

articles = {}
readme = read("README.md")
start = readme.index("## A nested machine")
getting = readme[start:]
getting = getting[: getting.index("## Layout")] if "## Layout" in getting else getting
articles["GettingStarted.md"] = article(
    "Getting Started", "Declare a machine with your own enum types, attach a child, send events.",
    getting.replace("## ", "### "))
articles["NestedMachines.md"] = article(
    "Nested Machines with attach(child:to:)",
    "Child machines live inside a parent state: entered with it, offered every event first, bubbling what they do not handle.",
    "\n".join(l for l in read("Docs/Semantics.md").splitlines() if re.match(r"- \*\*R(21|22|23|24|25|26|27|28|29)\b", l) or l.startswith("  ") and False)
    + "\n\nSee <doc:Semantics> for every rule with its full text.\n")
articles["ParallelRegionsAndHistory.md"] = article(
    "Parallel Regions and History",
    "Several children on one state run as parallel regions; shallow and deep history bring a configuration back.",
    "Attaching several children to one state makes it a parallel state with one region per child (R22); "
    "an attachment's `history:` decides how the child is re-entered (R23). In a chart built with "
    "`ChartDefinition` or loaded from SCXML, `<parallel>` and `<history type=\"shallow|deep\">` mean the same. "
    "Conflicts between regions follow R7; history is recorded before any exit action (R11) and restored by R12.\n\n"
    "See <doc:Semantics> for the rules.\n")
articles["Semantics.md"] = article("Semantics", "Every rule the engine follows, numbered.", body_without_title(read("Docs/Semantics.md")))
articles["ConcurrencyAndTime.md"] = article(
    "Concurrency and Time", "What the asynchronous runtime guarantees: ordering, serialization, cancellation, time.",
    body_without_title(read("Docs/ConcurrencyAndTime.md")))
articles["SCXML.md"] = article(
    "SCXML", "Load W3C SCXML documents into the same engine, export any chart back, run conformance scenarios.",
    "The `StatechartInterchange` module loads SCXML 1.0 documents with the null data model "
    "(`SCXMLDocument.load(contentsOf:)`) into the same ``Chart`` the typed builder produces, exports any chart "
    "(`SCXMLExporter.export(_:)`), and runs scenario files (`ScenarioRunner`). The `statechart` command wraps "
    "them: `statechart run`, `statechart test`, `statechart export`, `statechart validate`. Unsupported elements, "
    "expressions the null data model lacks, unknown targets and malformed XML are typed errors naming the element "
    "and its line; external entities are never resolved. Content of other namespaces, such as a Qt Creator "
    "chart's `qt:editorinfo` elements and `qt:` attributes, is ignored by the loader; "
    "`SCXMLDocument.loadDocument(contentsOf:)` returns it beside the chart, and "
    "`SCXMLExporter.export(_:foreignContent:)` (and `statechart export --format scxml`) writes it back verbatim "
    "on the elements it was on.\n")
articles["DiagramsAndValidation.md"] = article(
    "Diagrams and Validation", "Draw a chart as DOT or Mermaid; check it for dead states, dead transitions and loops.",
    body_without_title(read("Docs/Diagrams.md")) + "\n## Validation\n\n" + body_without_title(read("Docs/Validation.md")).replace("\n# ", "\n## "))
for name, text in sections(read("Docs/Migration.md")):
    slug = "MigratingFrom" + re.sub(r"[^A-Za-z]", "", name.title())
    articles[slug + ".md"] = article(f"Migrating from {name}", f"{name}'s README example rewritten with Statechart, and what differs and why.",
                                     text.replace("### ", "## "))

topics = "\n".join(f"- <doc:{n[:-3]}>" for n in articles)
articles["Statechart.md"] = f"""# ``Statechart``

A hierarchical statechart engine: nested machines, parallel regions, history, and W3C SCXML semantics.

## Overview

States and events are your own `Hashable & Sendable` types. Attach a child machine to a state and
it is entered with that state, sees every event first, and hands what it does not handle back to
its parent. One interpreter, following SCXML 1.0 exactly, runs every chart.

## Topics

### Articles

{topics}
"""

def write_all(check):
    stale = []
    os.makedirs(os.path.join(catalog, "Resources"), exist_ok=True)
    wanted = dict(articles)
    for svg in sorted(os.listdir(os.path.join(docs, "Diagrams"))):
        if svg.endswith(".svg"):
            wanted[os.path.join("Resources", svg)] = read(os.path.join("Docs", "Diagrams", svg))
    for name, text in wanted.items():
        path = os.path.join(catalog, name)
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old != text:
            stale.append(name)
            if not check:
                with open(path, "w", encoding="utf-8") as f:
                    f.write(text)
    return stale

check = "--check" in sys.argv
stale = write_all(check)
if check and stale:
    print("DocC articles are out of date (run Scripts/docc-articles.py): " + ", ".join(stale))
    sys.exit(1)
