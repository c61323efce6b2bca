import Foundation
import Hummingbird
import GridGeometry
import PointQuery

extension ForecastServer {
    /// `/v1/search`: Open-Meteo's Geocoding API over the gazetteer and `--places` (`PlaceSearch`).
    func addSearchRoutes(_ router: Router<BasicRequestContext>) {
        let engine = self.engine, configuration = self.configuration
        router.get("/v1/search") { request, _ -> Response in
            let started = ContinuousClock.now
            let search = try PlaceSearch(query: Self.queryPairs(request.uri))
            let gazetteer: Gazetteer
            switch Gazetteer.loaded {
            case .success(let loaded): gazetteer = loaded
            case .failure(let error): throw APIError(.serviceUnavailable, error.description)
            }
            // Off the cooperative pool, beside /v1/cycles: the cycles are looked up, then each
            // candidate place is projected onto their domains (microseconds a place).
            let found: Result<[PlaceSearch.Match], APIError> = await Self.operate {
                let opened = engine.cycles.all()
                guard !opened.stores.isEmpty else {
                    return .failure(APIError(.serviceUnavailable, opened.problems.isEmpty ? "the store holds no published cycle yet"
                                             : "no cycle of the store can be opened: \(opened.problems.joined(separator: "; "))"))
                }
                let domains = opened.stores.flatMap(\.domains)
                let inside = { (latitude: Double, longitude: Double) -> Bool in
                    let point = GeoPoint(latitude: latitude, longitude: longitude)
                    return domains.contains { $0.grid.contains($0.position(of: point), margin: $0.margin) }
                }
                return .success(search.results(gazetteer: gazetteer, named: configuration.places, inside: inside,
                                               zone: { TimeZoneTable.zone(latitude: $0, longitude: $1).name }))
            }
            let elapsed = ContinuousClock.now - started
            let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            let body = PlaceSearch.json(try found.get(), milliseconds: milliseconds)
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: body)))
        }
    }
}
