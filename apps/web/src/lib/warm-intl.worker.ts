// Formats a date in a time zone, in each language asked for, then says so (lib/warm-intl.ts).

const WARM_ZONE = 'Europe/London';

self.addEventListener('message', (event: MessageEvent<string[]>) => {
  for (const language of event.data.slice(0, 2)) {
    try {
      new Intl.DateTimeFormat(language, {
        timeZone: WARM_ZONE,
        dateStyle: 'medium',
        timeStyle: 'short',
      }).format(0);
    } catch {
      // A language tag the runtime refuses warms nothing; the page formats as it would have.
    }
  }
  new Intl.DateTimeFormat('en-US', { timeZone: WARM_ZONE, hour: '2-digit' }).format(0);
  self.postMessage('warm');
});
