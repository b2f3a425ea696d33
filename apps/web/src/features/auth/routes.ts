/** The change-password page: where a user with a pending change is sent from every other page. */
export const CHANGE_PASSWORD_ROUTE = '/change-password';
