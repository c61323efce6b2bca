import Catalog
import PointQuery

/// `/v7/minutely/5m`: the two hours from the current five minutes in 24 steps of 5 minutes,
/// each step's precipitation (mm, to 0.01) a third of the `/v1/forecast` `minutely_15` quarter
/// hour holding it (the run's 15-minute stream where it has one: its rate taken as steady over
/// the quarter hour, not a finer detail invented), `type` "snow" when most of the quarter
/// hour's water fell as snow; and `summary`, a sentence on when precipitation starts or stops.
struct QWeatherMinutely {
    /// Each step's start, its amount in hundredths of a mm and whether it is snow.
    let steps: [(time: Int64, hundredths: Int64, snow: Bool)]
    let request: QWeatherRequest
    let offset: (Int64) -> Int

    init(_ forecast: DialectForecast, request: QWeatherRequest, now: Int64) {
        self.request = request
        let times = forecast.place.times
        offset = { times.offset(at: $0) }
        var steps: [(time: Int64, hundredths: Int64, snow: Bool)] = []
        if let quarters = forecast.place.minutely15, let amounts = quarters.values[.precipitation] {
            let snow = quarters.values[.snowfallWaterEquivalent] ?? []
            var byEnd: [Int64: Int] = [:]
            for (k, time) in quarters.times.enumerated() where k < amounts.count { byEnd[time] = k }
            let first = now / 300 * 300
            for step in 0..<24 {
                let start = first + Int64(step) * 300
                // The quarter hour ending at or after the step's end holds it.
                let end = (start + 300 + 899) / 900 * 900
                guard let k = byEnd[end], let text = ForecastRenderer.formatted(amounts[k], .precipitation, OutputUnits()),
                      let hundredths = Int64(QWeatherNumber.rounded(text, to: 2).replacingOccurrences(of: ".", with: "")) else { break }
                let water = k < snow.count && snow[k].isFinite ? snow[k] : 0
                // A third of the quarter hour, rounded (a third is never exactly half a hundredth).
                steps.append((start, (hundredths + 1) / 3, hundredths > 0 && water * 2 > amounts[k]))
            }
        }
        self.steps = steps
    }

    var list: String {
        let items = steps.map { step in
            "{\"fxTime\":" + JSONText.quoted(QWeatherNumber.localTime(step.time, offset: offset(step.time)))
                + ",\"precip\":" + JSONText.quoted(OpenWeatherMapRow.hundredths(step.hundredths))
                + ",\"type\":" + JSONText.quoted(step.snow ? "snow" : "rain") + "}"
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    /// One sentence in the asked language: none in two hours, when it starts, when it stops,
    /// or that it goes on; empty when the runs do not cover the two hours.
    var summary: String {
        guard steps.count == 24 else { return "" }
        let zh = request.language == .zh
        let wet = steps.map { $0.hundredths > 0 }
        if wet[0] {
            guard let stop = wet.firstIndex(of: false) else {
                return zh ? "未来两小时降水持续" : "Precipitation continues for the next two hours"
            }
            return zh ? "\(stop * 5)分钟后降水停止" : "Precipitation stops in \(stop * 5) minutes"
        }
        guard let start = wet.firstIndex(of: true) else { return zh ? "未来两小时无降水" : "No precipitation for the next two hours" }
        return zh ? "\(start * 5)分钟后开始降水" : "Precipitation starts in \(start * 5) minutes"
    }
}
