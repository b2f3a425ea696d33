// The connect module's face (Green Button Connect My Data, issue 37): third-party apps that
// administrators register, the OAuth server customers consent through, their grants, and the ESPI
// resource API the apps read with, and the notifications they are sent. It owns connect_apps,
// connect_grants, oauth_artefacts and espi_notifications.
export { connectAppsRoutes } from './connect.routes.ts';
export { connectAppNames, ConnectAppsService } from './connect-apps.service.ts';
export { connectGrantsRoutes } from './connect-grants.routes.ts';
export { ConnectGrantsService } from './connect-grants.service.ts';
export { espiApiRoutes } from './espi-api.routes.ts';
export { EspiApiService } from './espi-api.service.ts';
export { EspiNotifier } from './espi-notifications.ts';
export { createOauthProvider } from './oauth-provider.ts';
export { oauthRoutes } from './oauth.routes.ts';
