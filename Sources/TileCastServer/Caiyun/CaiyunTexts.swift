/// The texts of Caiyun's answers (`minutely.description`, `forecast_keypoint`,
/// `hourly.description`) in its languages, written from the answer's own numbers: what the
/// next two hours' rates do, and the most severe sky of the next 24 hours. en_GB is en_US.
enum CaiyunTexts {
    /// One text in each language: English, simplified and traditional Chinese, Japanese.
    struct Text {
        let en: String, zhCN: String, zhTW: String, ja: String

        func callAsFunction(_ language: CaiyunLanguage) -> String {
            switch language {
            case .enUS, .enGB: return en
            case .zhCN: return zhCN
            case .zhTW: return zhTW
            case .ja: return ja
            }
        }
    }

    /// Below this rate (mm/h) a minute is dry: Caiyun's bound of "no rain" (radar intensity 0.031).
    static let wetRate = 0.0606

    /// The next two hours from their minute rates (mm/h, from the current minute).
    static func nextTwoHours(_ rates: [Double], _ language: CaiyunLanguage) -> String {
        guard let first = rates.first else {
            return Text(en: "No minute-by-minute forecast for this place now", zhCN: "暂无分钟级降水预报", zhTW: "暫無分鐘級降水預報",
                        ja: "分単位の降水予報はありません")(language)
        }
        let wetNow = first >= wetRate
        guard let change = rates.firstIndex(where: { ($0 >= wetRate) != wetNow }) else {
            return wetNow
                ? Text(en: "Precipitation continuing over the next two hours", zhCN: "未来两小时降水持续", zhTW: "未來兩小時降水持續",
                       ja: "今後2時間は降水が続く見込み")(language)
                : Text(en: "No precipitation over the next two hours", zhCN: "未来两小时不会下雨", zhTW: "未來兩小時不會下雨",
                       ja: "今後2時間は降水なし")(language)
        }
        let n = String(change)
        return wetNow
            ? Text(en: "Precipitation stopping in \(n) min", zhCN: "\(n)分钟后降水停止", zhTW: "\(n)分鐘後降水停止", ja: "\(n)分後に降水が止む見込み")(language)
            : Text(en: "Precipitation starting in \(n) min", zhCN: "\(n)分钟后开始降水", zhTW: "\(n)分鐘後開始降水", ja: "\(n)分後に降り始める見込み")(language)
    }

    /// The skycons this server answers, most severe first, each with its text (day and night alike).
    static let skies: [(name: String, text: Text)] = [
        ("STORM_RAIN", Text(en: "storm rain", zhCN: "暴雨", zhTW: "暴雨", ja: "豪雨")),
        ("HEAVY_SNOW", Text(en: "heavy snow", zhCN: "大雪", zhTW: "大雪", ja: "大雪")),
        ("HEAVY_RAIN", Text(en: "heavy rain", zhCN: "大雨", zhTW: "大雨", ja: "大雨")),
        ("MODERATE_SNOW", Text(en: "moderate snow", zhCN: "中雪", zhTW: "中雪", ja: "雪")),
        ("MODERATE_RAIN", Text(en: "moderate rain", zhCN: "中雨", zhTW: "中雨", ja: "雨")),
        ("LIGHT_SNOW", Text(en: "light snow", zhCN: "小雪", zhTW: "小雪", ja: "小雪")),
        ("LIGHT_RAIN", Text(en: "light rain", zhCN: "小雨", zhTW: "小雨", ja: "小雨")),
        ("FOG", Text(en: "fog", zhCN: "雾", zhTW: "霧", ja: "霧")),
        ("CLOUDY", Text(en: "cloudy", zhCN: "阴", zhTW: "陰", ja: "曇り")),
        ("PARTLY_CLOUDY", Text(en: "partly cloudy", zhCN: "多云", zhTW: "多雲", ja: "晴れ時々曇り")),
        ("CLEAR", Text(en: "clear", zhCN: "晴", zhTW: "晴", ja: "晴れ")),
    ]

    /// "cloudy over the next 24 hours": the most severe of the hours' skycons.
    static func nextDay(_ skycons: [String], _ language: CaiyunLanguage) -> String {
        let bases = Set(skycons.map { name in name.hasSuffix("_DAY") ? String(name.dropLast(4)) : name.hasSuffix("_NIGHT") ? String(name.dropLast(6)) : name })
        guard let sky = skies.first(where: { bases.contains($0.name) }) else {
            return Text(en: "No hourly forecast for this place now", zhCN: "暂无逐小时预报", zhTW: "暫無逐小時預報", ja: "時間別予報はありません")(language)
        }
        let text = sky.text(language)
        return Text(en: "\(text) over the next 24 hours", zhCN: "未来24小时\(text)", zhTW: "未來24小時\(text)", ja: "今後24時間は\(text)")(language)
    }
}
