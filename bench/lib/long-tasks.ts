import type { Page } from 'playwright-core';
import { launchBenchChromium } from './chromium.ts';

// The long tasks of a page load, by cause: the page is loaded once in Chromium on a phone's
// viewport with the CPU slowed down 4× (Lighthouse's mobile profile), traced, and every main-thread
// task over 50 ms is split by what its time was spent on — parsing and compiling scripts, running
// each script (named by its bundle chunk: the page's engine, the chart, the table, React …), style
// and layout, paint, garbage collection — from the trace's own events, self time only.

/** A trace event as Chromium writes it (the fields read here). */
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; stackTrace?: { url?: string }[] } };
}

export interface LongTaskCause {
  cause: string;
  ms: number;
  /** In how many of the long tasks it took time. */
  tasks: number;
}

export interface LongTaskReport {
  tasks: number[];
  causes: LongTaskCause[];
}

const LONG_TASK_US = 50_000;

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8',
  'v8.execute',
  'blink',
  'loading',
];

const PARSE =
  /^(v8\.compile|v8\.compileModule|v8\.parseOnBackground|CompileScript|v8\.produceCache|v8\.produceModuleCache|CompileCode|CacheScript)$/;
const STYLE_LAYOUT =
  /^(Layout|UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|HitTest|UpdateLayout)$/;
const PAINT =
  /^(Paint|PrePaint|Layerize|UpdateLayer|CompositeLayers|Commit|PaintImage|Decode Image|RasterTask|CanvasRenderingContext2D::FinalizeFrame|LocalFrameView::Run\w*LifecyclePhase)$/;
const GC = /GC|GarbageCollection/;
const SCRIPT =
  /^(EvaluateScript|FunctionCall|TimerFire|FireAnimationFrame|EventDispatch|v8\.callFunction|RunMicrotasks|V8\.RunMicrotasks|V8\.Execute|v8\.run|v8\.evaluateModule|V8\.BytecodeBudgetInterrupt|V8\.HandleInterrupts|FireIdleCallback|XHRReadyStateChange)$/;

/** A bundle chunk's name without its hash: `check-page-BrdARudY.js` → `check-page.js`. */
function chunkOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const file = url.split('?')[0]?.split('/').pop() ?? '';
  return file.replace(/-[\w-]{8}\.js$/, '.js') || undefined;
}

/** What an event's own time counts as; `script` events inherit the nearest script URL above them. */
function causeOf(event: TraceEvent, scriptUrl: string | undefined): string {
  if (PARSE.test(event.name)) return 'parse and compile';
  if (STYLE_LAYOUT.test(event.name)) return 'style and layout';
  if (PAINT.test(event.name)) return 'paint';
  if (GC.test(event.name)) return 'garbage collection';
  if (event.name === 'ParseHTML') return 'HTML';
  if (SCRIPT.test(event.name) || scriptUrl) return `script: ${chunkOf(scriptUrl) ?? '(no file)'}`;
  return `other (${event.name})`;
}

/** Splits each long task of the renderer's main threads into its events' self times, by cause. */
export function longTasksOfTrace(events: readonly TraceEvent[]): LongTaskReport {
  const mainThreads = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const byThread = new Map<string, TraceEvent[]>();
  for (const event of events) {
    if (event.ph !== 'X' || event.dur === undefined) continue;
    const thread = `${event.pid}:${event.tid}`;
    if (!mainThreads.has(thread)) continue;
    const list = byThread.get(thread) ?? [];
    list.push(event);
    byThread.set(thread, list);
  }
  const totals = new Map<string, { us: number; tasks: Set<number> }>();
  const tasks: number[] = [];
  for (const list of byThread.values()) {
    // Parents before children: by start, the longer first.
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    for (const [index, task] of list.entries()) {
      if (task.name !== 'RunTask' || (task.dur ?? 0) <= LONG_TASK_US) continue;
      const taskNumber = tasks.length;
      tasks.push((task.dur ?? 0) / 1000);
      const end = task.ts + (task.dur ?? 0);
      // A stack of open events, each with its own time not yet given to a child.
      const stack: { event: TraceEvent; self: number; url: string | undefined }[] = [
        { event: task, self: task.dur ?? 0, url: undefined },
      ];
      const close = (until: number) => {
        while (stack.length > 1) {
          const top = stack[stack.length - 1];
          if (!top || top.event.ts + (top.event.dur ?? 0) > until) break;
          stack.pop();
          add(top);
        }
      };
      const add = (entry: { event: TraceEvent; self: number; url: string | undefined }) => {
        const cause = entry.event === task ? 'other (task itself)' : causeOf(entry.event, entry.url);
        const total = totals.get(cause) ?? { us: 0, tasks: new Set<number>() };
        total.us += Math.max(0, entry.self);
        total.tasks.add(taskNumber);
        totals.set(cause, total);
      };
      for (let i = index + 1; i < list.length; i += 1) {
        const event = list[i];
        if (!event || event.ts >= end) break;
        close(event.ts);
        const parent = stack[stack.length - 1];
        if (!parent) break;
        parent.self -= event.dur ?? 0;
        const url = event.args?.data?.url ?? event.args?.data?.stackTrace?.[0]?.url ?? parent.url;
        stack.push({ event, self: event.dur ?? 0, url: url || parent.url });
      }
      close(Number.POSITIVE_INFINITY);
      const root = stack.pop();
      if (root) add(root);
    }
  }
  // Kinds of "other" under 5 ms each are summed into one row.
  const small = { cause: 'other (the rest)', ms: 0, tasks: 0 };
  const causes = [...totals]
    .map(([cause, { us, tasks: seen }]) => ({ cause, ms: us / 1000, tasks: seen.size }))
    .filter((c) => {
      if (!c.cause.startsWith('other (') || c.ms >= 5) return true;
      small.ms += c.ms;
      small.tasks = Math.max(small.tasks, c.tasks);
      return false;
    })
    .concat(small.ms > 0 ? [small] : [])
    .sort((a, b) => b.ms - a.ms);
  return { tasks: tasks.sort((a, b) => b - a), causes };
}

/**
 * Loads `url` once as a phone would (412 × 823, CPU 4× slower), traced from the navigation until
 * `ready` is on the page and the main thread has been quiet a second; answers its long tasks by cause.
 */
export async function traceLongTasks(
  url: string,
  prepare: (origin: string, page: Page) => Promise<void>,
  ready: string,
): Promise<LongTaskReport> {
  const browser = await launchBenchChromium();
  try {
    const context = await browser.newContext({
      viewport: { width: 412, height: 823 },
      deviceScaleFactor: 2.625,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await prepare(new URL(url).origin, page);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await browser.startTracing(page, { categories: CATEGORIES });
    await page.goto(url);
    await page.waitForSelector(ready, { timeout: 120_000 });
    await page.waitForTimeout(1_000);
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    return longTasksOfTrace(trace.traceEvents);
  } finally {
    await browser.close();
  }
}
