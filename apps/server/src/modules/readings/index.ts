// The readings module's face (the stored readings, their packing and the engine): the only file
// of it that other modules, the app's wiring and scripts import.
export { CHANNEL_NUMBER, ReadingKind } from './channels.ts';
export { COMPLETENESS_WINDOW_MS, Completeness } from './completeness.ts';
export {
  computeReadings,
  type ComputedChannel,
  type ChannelSegments,
  type MeterSegment,
  type SeriesColumns,
} from './engine/compute.ts';
export type { CostTotals, PriceTimeline } from './engine/cost.ts';
export {
  averagePower,
  joinIntervals,
  mapIntervals,
  NO_KNOWN_INTERVALS,
  peakOf,
  rollingAverage,
  summedPeaks,
  type KnownIntervals,
  type Peak,
  type PeakColumns,
  type SummedMeter,
} from './engine/demand.ts';
export { StepFlag, StepKind, Steps, registerSteps } from './engine/steps.ts';
export {
  LatestReadings,
  NO_READING,
  type LastReading,
  type LastReadingAndWindow,
} from './latest-readings.ts';
export { RangeInputError, resolveProjectTo, resolveRange, type ResolvedRange } from './range.ts';
export { ReadingsStore, packQueuedMonths, type ChannelReadings } from './readings-store.ts';
export { presentCarbon, presentPeak, presentReadings } from './readings.presenter.ts';
export {
  readings,
  type DayAsk,
  type DayRegisters,
  type MonthPeak,
  type RegisterDecrease,
} from './readings.service.ts';
export {
  isImplausibleDecrease,
  kwhToMicro,
  microToKwhText,
  parseDecimalMicro,
  registerAdvanceMicro,
  registerRangeMicro,
} from './register-value.ts';
export { ReadingsStage, copyLine, type ReadingsAddedListener, type StageLine } from './staging.ts';
export { bucketEdges } from './zoned-time.ts';
