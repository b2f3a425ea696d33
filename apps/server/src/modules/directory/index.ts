// The directory module's face (locations, devices, meters): the only file of it that other
// modules and the app's wiring import.
export { devicesRoutes } from './devices.routes.ts';
export {
  AdminDevicesService,
  addMeter,
  deviceNames,
  freeMeterInd,
  rethrowUnique,
} from './devices.service.ts';
export { locationsRoutes } from './locations.routes.ts';
export { AdminLocationsService, locationNames, missingLocations } from './locations.service.ts';
export type { MeterFacts } from './meter-facts.ts';
export {
  addChannels,
  findAlertMeters,
  findExportMeter,
  findImportLocation,
  findLocationMeters,
  findMetersByNumber,
  findVisibleItem,
  findVisibleLocation,
  findVisibleLocationWithMeters,
  findVisibleMeter,
  listVisibleItems,
  loadMeterFacts,
  metersDuring,
  searchVisibleItems,
  touchChains,
} from './meters.service.ts';
export type {
  AlertMeter,
  ParentDevice,
  DirectoryItem,
  DirectoryLocation,
  ExportMeter,
  IngestMeter,
  LocationMeter,
} from './views.ts';
