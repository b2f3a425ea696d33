// uPlot reads the device pixel ratio through matchMedia when it loads; jsdom has none. Tests that
// load uPlot import this module first (imports run in order, so it runs before uPlot's).
window.matchMedia ??= (query: string) =>
  ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }) as MediaQueryList;
