import 'uplot/dist/uPlot.min.css';
import uPlot from 'uplot';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { perfMarks } from '../api.ts';
import { buildChartOptions, type ChartMarkers, type ChartSpec } from './chart-options.ts';
import { fullXRange } from './chart-data.ts';
import classes from '../check.module.css';

/** Writes the tooltip for the hovered point's x value into the element; false: nothing to show. Runs outside React render, once per cursor frame. */
export type TooltipWriter = (x: number | null, element: HTMLElement) => boolean;

interface ReadingsChartProps {
  /** Everything but the size: a new object here rebuilds the plot, so callers memoize it. */
  spec: Omit<ChartSpec, 'width' | 'height'>;
  data: uPlot.AlignedData;
  markers: ChartMarkers;
  height: number;
  ariaLabel: string;
  writeTooltip: TooltipWriter;
  onZoomChange: (isZoomed: boolean) => void;
  /** Set by the shell: zooms back out to the whole range. */
  resetRef: { current: (() => void) | null };
}

/**
 * The thin uPlot shell: creates the plot once per options object, pushes new data with setData,
 * follows its container's width with setSize, and draws the tooltip straight into the DOM.
 */
export function ReadingsChart({
  spec,
  data,
  markers,
  height,
  ariaLabel,
  writeTooltip,
  onZoomChange,
  resetRef,
}: ReadingsChartProps) {
  const wrapperRef = useRef<HTMLDivElement>(null);
  const plotAreaRef = useRef<HTMLDivElement>(null);
  const tooltipRef = useRef<HTMLDivElement>(null);
  const plotRef = useRef<uPlot | null>(null);
  const dataRef = useRef(data);
  const markersRef = useRef(markers);
  const tooltipWriterRef = useRef(writeTooltip);
  const zoomRef = useRef(onZoomChange);
  const heightRef = useRef(height);
  // Told to the page only when it changes: a needless state update re-renders the whole section.
  const isZoomedRef = useRef(false);
  const reportZoom = (isZoomed: boolean) => {
    if (isZoomed === isZoomedRef.current) return;
    isZoomedRef.current = isZoomed;
    zoomRef.current(isZoomed);
  };

  useLayoutEffect(() => {
    markersRef.current = markers;
    tooltipWriterRef.current = writeTooltip;
    zoomRef.current = onZoomChange;
    heightRef.current = height;
  });

  // Create the plot; again only when the spec (the options) changes. It is made once the browser
  // has reported the area's size, in a task of its own: not in the commit that mounted it (reading
  // the width there would lay out the whole page at once, inside the long task that rendered it),
  // nor in the size report itself, which runs inside the frame that lays out and paints the
  // section just mounted (issue 38: on a phone the two together were one task of ~150 ms).
  useEffect(() => {
    const area = plotAreaRef.current;
    if (!area) return;
    let made: uPlot | null = null;
    let firstWidth = 0;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const create = (width: number) => {
      const options = buildChartOptions(
        { ...spec, width, height: heightRef.current },
        {
          getMarkers: () => markersRef.current,
          onCursor: (index, left, top) => {
            const tooltip = tooltipRef.current;
            const plot = plotRef.current;
            if (!tooltip || !plot) return;
            const x = index === null ? null : (plot.data[0][index] ?? null);
            const isShown = left >= 0 && tooltipWriterRef.current(x, tooltip);
            tooltip.hidden = !isShown;
            if (!isShown) return;
            const plotLeft = plot.bbox.left / uPlot.pxRatio;
            const plotTop = plot.bbox.top / uPlot.pxRatio;
            const areaWidth = area.clientWidth;
            const boxWidth = tooltip.offsetWidth;
            const x0 = plotLeft + left + 12;
            tooltip.style.transform = `translate(${x0 + boxWidth > areaWidth ? plotLeft + left - boxWidth - 12 : x0}px, ${plotTop + Math.max(0, top - 40)}px)`;
          },
          onZoom: (min, max) => {
            const full = fullXRange(dataRef.current);
            reportZoom(full !== null && (min > full.min || max < full.max));
          },
          onDraw: () => performance.mark(perfMarks.drawn),
        },
      );
      const created = new uPlot(options, dataRef.current, area);
      plotRef.current = created;
      resetRef.current = () => {
        const full = fullXRange(created.data);
        if (full) created.setScale('x', full);
      };
      return created;
    };
    const observer = new ResizeObserver(([entry]) => {
      const nextWidth = Math.max(200, Math.floor(entry?.contentRect.width ?? area.clientWidth));
      if (made === null) {
        firstWidth = nextWidth;
        pending ??= setTimeout(() => {
          made = create(firstWidth);
        }, 0);
      } else if (nextWidth !== made.width || heightRef.current !== made.height)
        made.setSize({ width: nextWidth, height: heightRef.current });
    });
    observer.observe(area);
    const handleLeave = () => {
      if (tooltipRef.current) tooltipRef.current.hidden = true;
    };
    area.addEventListener('mouseleave', handleLeave);
    return () => {
      observer.disconnect();
      clearTimeout(pending);
      area.removeEventListener('mouseleave', handleLeave);
      made?.destroy();
      plotRef.current = null;
      resetRef.current = null;
    };
  }, [spec, resetRef]);

  // New data: no rebuild.
  useEffect(() => {
    if (dataRef.current === data) return;
    dataRef.current = data;
    const plot = plotRef.current;
    if (!plot) return;
    plot.setData(data, true);
    reportZoom(false);
  }, [data]);

  useEffect(() => {
    plotRef.current?.redraw(false, false);
  }, [markers]);

  useEffect(() => {
    const plot = plotRef.current;
    if (plot && plot.height !== height) plot.setSize({ width: plot.width, height });
  }, [height]);

  return (
    <div ref={wrapperRef} className={classes.chartWrapper}>
      <div ref={plotAreaRef} className={classes.chart} role="img" aria-label={ariaLabel} />
      <div
        ref={tooltipRef}
        className={classes.tooltip}
        hidden
        aria-hidden="true"
        data-testid="chart-tooltip"
      />
    </div>
  );
}
