import Foundation

/// A large SCXML document for the parsing benchmarks, generated deterministically.
///
/// `groups` blocks, each about 1 KB: a compound state with entry and exit content (`log`,
/// `raise`), a deep history, nine atomic children with event, guarded (`In(...)`) and
/// targetless transitions; every tenth block is a `<parallel>` of two regions instead. The mix
/// follows what the loader accepts (null data model).
public func generatedSCXML(groups: Int) -> Data {
    var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- Generated for the Statechart parsing benchmark. -->
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" name="generated" initial="g0">

        """
    xml.reserveCapacity(groups * 1_200)
    for g in 0..<groups {
        let next = (g + 1) % groups
        if g % 10 == 9 {
            xml += """
                  <parallel id="g\(g)">
                    <onentry><log label="enter g\(g)"/></onentry>
                    <transition event="jump" target="g\(next)"/>
                    <state id="g\(g).left" initial="g\(g).left.a">
                      <state id="g\(g).left.a"><transition event="next" target="g\(g).left.b"/></state>
                      <state id="g\(g).left.b"><transition event="next" target="g\(g).left.a"/></state>
                    </state>
                    <state id="g\(g).right" initial="g\(g).right.a">
                      <state id="g\(g).right.a"><transition event="next" target="g\(g).right.b"/></state>
                      <state id="g\(g).right.b"><transition event="next" target="g\(g).right.a"/></state>
                    </state>
                  </parallel>

                """
            continue
        }
        xml += """
              <state id="g\(g)" initial="g\(g).s0">
                <onentry><log label="enter g\(g)"/><raise event="entered.g\(g)"/></onentry>
                <onexit><log label="exit g\(g)"/></onexit>
                <history id="g\(g).h" type="deep"><transition target="g\(g).s0"/></history>
                <transition event="jump" target="g\(next)"/>
                <transition event="resume.g\(g)" target="g\(g).h"/>

            """
        for s in 0..<9 {
            xml += """
                    <state id="g\(g).s\(s)">
                      <transition event="next" cond="In('g\(g)')" target="g\(g).s\((s + 1) % 9)"/>
                      <transition event="tick"/>
                    </state>

                """
        }
        xml += "    </state>\n"
    }
    xml += "</scxml>\n"
    return Data(xml.utf8)
}
