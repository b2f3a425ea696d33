// The connect module's face (Green Button Connect My Data, issue 37): third-party apps that
// administrators register. It owns connect_apps.
export { connectAppsRoutes } from './connect.routes.ts';
export { connectAppNames, ConnectAppsService } from './connect-apps.service.ts';
