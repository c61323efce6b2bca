import Catalog
import Meteorology

/// The weather symbols, drawn for this project on a 32 x 32 grid as SVG `<symbol>`s (no
/// icon font or image: the picture must work offline). A symbol is a stack of parts: a sun or
/// moon (alone, or partly behind a cloud), a cloud, and what falls from it.
enum MeteogramSymbols {
    /// The parts of the symbol for a code at day or night, back to front.
    static func parts(code: WeatherCode?, isDay: Bool) -> [String] {
        let light = isDay ? "sun" : "moon"
        guard let code else { return ["cloud"] }
        switch code {
        case .clearSky: return [light]
        case .mainlyClear: return [light, "small-cloud"]
        case .partlyCloudy: return [light + "-behind", "cloud"]
        case .overcast: return ["cloud"]
        case .fog, .depositingRimeFog: return ["fog"]
        case .lightDrizzle, .moderateDrizzle, .denseDrizzle, .lightFreezingDrizzle, .denseFreezingDrizzle: return ["cloud", "drizzle"]
        case .slightRain, .moderateRain, .heavyRain, .lightFreezingRain, .heavyFreezingRain: return ["dark-cloud", "rain"]
        case .slightRainShowers, .moderateRainShowers, .violentRainShowers: return [light + "-behind", "cloud", "rain"]
        case .slightSnowfall, .moderateSnowfall, .heavySnowfall: return ["dark-cloud", "snow"]
        case .slightSnowShowers, .heavySnowShowers: return [light + "-behind", "cloud", "snow"]
        case .thunderstorm, .thunderstormWithSlightHail, .thunderstormWithHeavyHail: return ["dark-cloud", "rain", "lightning"]
        }
    }

    static let rays = (0..<8).map { k -> String in
        let angle = Double(k) * 45
        return "<line x1=\"16\" y1=\"3\" x2=\"16\" y2=\"6.5\" transform=\"rotate(\(Int(angle)) 16 16)\"/>"
    }.joined()

    static let cloudPath = "M9 25h15.5a5.5 5.5 0 0 0 .6-11 7.5 7.5 0 0 0-14.4-1.2A6 6 0 0 0 9 25z"

    /// The `<defs>` every meteogram carries (ids prefixed "mg-", distinct from the page's).
    static let definitions: String = {
        let symbol = { (id: String, body: String) in "<symbol id=\"mg-\(id)\" viewBox=\"0 0 32 32\">\(body)</symbol>" }
        var out = "<defs>"
        out += symbol("sun", "<g stroke=\"#e6a100\" stroke-width=\"2\" stroke-linecap=\"round\">\(rays)</g><circle cx=\"16\" cy=\"16\" r=\"7\" fill=\"#f5b700\"/>")
        out += symbol("moon", "<path d=\"M20 5a11 11 0 1 0 8 17A9 9 0 0 1 20 5z\" fill=\"#8e9ac0\"/>")
        out += symbol("sun-behind", "<g transform=\"translate(-5 -5) scale(.8)\"><g stroke=\"#e6a100\" stroke-width=\"2.5\" stroke-linecap=\"round\">\(rays)</g><circle cx=\"16\" cy=\"16\" r=\"7\" fill=\"#f5b700\"/></g>")
        out += symbol("moon-behind", "<path d=\"M14 3a8 8 0 1 0 6 12.5A6.5 6.5 0 0 1 14 3z\" fill=\"#8e9ac0\"/>")
        out += symbol("cloud", "<path d=\"\(cloudPath)\" fill=\"#d5dbe1\" stroke=\"#7b8794\" stroke-width=\"1.2\"/>")
        out += symbol("dark-cloud", "<path d=\"\(cloudPath)\" fill=\"#aab4be\" stroke=\"#5d6d7e\" stroke-width=\"1.2\"/>")
        out += symbol("small-cloud", "<path d=\"M15 28h10a3.6 3.6 0 0 0 .4-7.2 5 5 0 0 0-9.6-.8A4 4 0 0 0 15 28z\" fill=\"#e5e8eb\" stroke=\"#7b8794\"/>")
        out += symbol("fog", "<g stroke=\"#7b8794\" stroke-width=\"2.2\" stroke-linecap=\"round\"><line x1=\"5\" y1=\"11\" x2=\"27\" y2=\"11\"/><line x1=\"3\" y1=\"17\" x2=\"25\" y2=\"17\"/><line x1=\"7\" y1=\"23\" x2=\"29\" y2=\"23\"/></g>")
        out += symbol("drizzle", "<g fill=\"#2e86c1\"><circle cx=\"12\" cy=\"29\" r=\"1.3\"/><circle cx=\"17\" cy=\"30\" r=\"1.3\"/><circle cx=\"22\" cy=\"29\" r=\"1.3\"/></g>")
        out += symbol("rain", "<g stroke=\"#2e86c1\" stroke-width=\"2\" stroke-linecap=\"round\"><line x1=\"12\" y1=\"27\" x2=\"10.5\" y2=\"31\"/><line x1=\"17\" y1=\"27\" x2=\"15.5\" y2=\"31\"/><line x1=\"22\" y1=\"27\" x2=\"20.5\" y2=\"31\"/></g>")
        out += symbol("lightning", "<path d=\"M17 17l-4 7h3.5l-2 6 6-8.5h-3.5l2-4.5z\" fill=\"#f5b700\" stroke=\"#b07d00\" stroke-width=\".6\"/>")
        out += symbol("snow", "<g stroke=\"#5dade2\" stroke-width=\"1.3\" stroke-linecap=\"round\">" + [11.0, 17, 23].map { cx in
            "<path d=\"M\(cx) 26.5v5M\(cx - 2.2) 27.8l4.4 2.4M\(cx - 2.2) 30.2l4.4-2.4\"/>"
        }.joined() + "</g>")
        return out + "</defs>"
    }()
}
