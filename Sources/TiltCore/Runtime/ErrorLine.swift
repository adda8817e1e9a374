/// The house style of an error line (README.md, "Conventions"): `error: ` and a sentence that starts in lowercase,
/// as compilers and git write it, its clauses joined by `;`.
///
/// For the argument parser's own messages (`Unknown option '--bogus'. Did you mean '--out'?`), which the programs
/// only get as text; their words stay, only the style changes.
public enum ErrorLine {
    /// `text` in the house style: the first letter of the sentence lowercased unless it starts a word in capitals
    /// (`GL`, `EGL`), each following sentence joined with `; ` and lowercased the same way, a final `.` dropped.
    public static func houseStyle(_ text: String) -> String {
        // A sentence ends at ". " before a capitalised word ("Did you"), not in "e.g. 1280x720".
        let characters = Array(text)
        var sentences: [String] = []
        var start = 0
        var i = 0
        while i + 3 < characters.count {
            if characters[i] == ".", characters[i + 1] == " ", characters[i + 2].isUppercase,
                characters[i + 3].isLowercase
            {
                sentences.append(String(characters[start..<i]))
                start = i + 2
                i = start
            } else {
                i += 1
            }
        }
        let rest = String(characters[start...])
        sentences.append(rest)
        var styled = sentences.map(lowercasingFirst).joined(separator: "; ")
        if styled.hasSuffix(".") && !styled.hasSuffix("..") { styled.removeLast() }
        return styled
    }

    /// `sentence` with its first letter lowercased when the second is lowercase too (`Unknown` → `unknown`, `GL`
    /// stays).
    private static func lowercasingFirst(_ sentence: String) -> String {
        guard let first = sentence.first, first.isUppercase else { return sentence }
        let second = sentence.dropFirst().first
        guard second == nil || second!.isLowercase || second == " " else { return sentence }
        return first.lowercased() + sentence.dropFirst()
    }
}
