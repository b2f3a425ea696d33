// The imports module's face: the only file of it that other modules and the app's wiring import.
export { ImportJobsService } from './import-jobs.service.ts';
export { importsRoutes } from './imports.routes.ts';
export { ImportsService } from './imports.service.ts';
export { parseTimestamp } from './timestamp.ts';
