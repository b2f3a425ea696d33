// The ingest module's face: the only file of it that the app's wiring imports.
export { ingestRoutes } from './ingest.routes.ts';
export { IngestService } from './ingest.service.ts';
