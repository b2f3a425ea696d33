// The alerts module's face: the only file of it that other modules and the app's wiring import.
export { adminAlertsRoutes, alertsRoutes } from './alerts.routes.ts';
export { AlertsService } from './alerts.service.ts';
export { smtpMailer } from './mailer.ts';
export { sealWebhookSecrets } from './webhooks.ts';
