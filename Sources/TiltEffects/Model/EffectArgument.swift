/// One argument passed to an effect function after its fixed parameters, in declaration order.
package struct EffectArgument: Sendable, Hashable {
    /// The argument's name (for messages and documentation; GLSL arguments are positional).
    package var name: String
    /// Its GLSL type.
    package var type: ArgumentType
    /// Where its value comes from.
    package var binding: ArgumentBinding

    /// Creates an argument.
    package init(name: String, type: ArgumentType, binding: ArgumentBinding) {
        self.name = name
        self.type = type
        self.binding = binding
    }

    /// The GLSL expression that passes this argument.
    package var glslExpression: String {
        if let uniform = binding.uniformExpression { return uniform }
        guard case .constant(let values) = binding else { return "0.0" }
        let literals = values.map(Self.literal)
        switch type {
        case .float: return literals.first ?? "0.0"
        case .floatArray(let count): return "float[\(count)](\(literals.joined(separator: ", ")))"
        case .color:
            // Preset colours are straight alpha; effects receive premultiplied colour, as in SwiftUI.
            let a = values.count > 3 ? values[3] : 1
            let rgb = values.prefix(3).map { Self.literal($0 * a) }
            return "vec4(\(rgb.joined(separator: ", ")), \(Self.literal(a)))"
        default: return "\(type.glslName)(\(literals.joined(separator: ", ")))"
        }
    }

    /// A GLSL float literal that always has a decimal point.
    static func literal(_ value: Double) -> String {
        guard value.isFinite else { return "0.0" }
        var text = "\(value)"
        if !text.contains(".") && !text.contains("e") { text += ".0" }
        return text
    }
}
