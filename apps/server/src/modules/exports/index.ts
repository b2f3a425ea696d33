// The exports module's face: the only file of it that the app's wiring imports.
export { downloadRoutes, exportsRoutes } from './exports.routes.ts';
export { ExportsService, meterDays } from './exports.service.ts';
export type { UsageSummaryFacts } from './espi-writer.ts';
