// The access log's face ("Who read my data", issue 37): the recorder the modules that read a
// meter's data call, who the reader is, and the log's reader and routes for the app's wiring. It
// imports no module but access: the meters it shows are found through the lookup app.ts hands in.
export { accessLogRoutes } from './access-log.routes.ts';
export { AccessLogService } from './access-log.service.ts';
export { fileReaderOf, readerOf, type Reader } from './reader.ts';
export { AccessRecorder, type AccessRead, type AccessRecording } from './recorder.ts';
