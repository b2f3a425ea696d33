// The bookmarks module's face: the only file of it that the app's wiring imports.
export { bookmarksRoutes } from './bookmarks.routes.ts';
export { BookmarksService } from './bookmarks.service.ts';
