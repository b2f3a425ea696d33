// @vitest-environment jsdom
import type { CarbonSummary } from '@cm/contracts/check.ts';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderPage } from '@/test-support/render-page.tsx';
import { CarbonPanel } from './carbon-panel.tsx';

// docs/carbon.md's worked example: 2.2 kg over 9.5 kWh, one half hour (1 kWh) without an intensity.
const example: CarbonSummary = {
  region: 'NL',
  emissions: 2.2,
  unknownConsumption: 1,
  unknownIntervals: 1,
  knownConsumption: 9.5,
  averageIntensity: 231.579,
  cleanestConsumption: 3.5,
  rangedConsumption: 9.5,
  cleanestQuarterShare: 0.368421,
  avoidedEstimate: null,
  unknownExport: 0,
};

describe('the carbon panel', () => {
  afterEach(cleanup);

  it('says the emissions are at least what is known, and for how many intervals they are unknown', async () => {
    await renderPage(<CarbonPanel carbon={example} />);
    expect((await screen.findByTestId('carbon-emissions')).textContent).toBe(
      'Emissionsat least 2.2 kg CO2eUnknown for 1 interval (1.000\u00a0kWh): no intensity',
    );
    expect(screen.getByTestId('carbon-intensity').textContent).toBe('Average intensity231.6 g/kWh');
    expect(screen.getByTestId('carbon-cleanest').textContent).toContain('36.8%');
    expect(screen.queryByTestId('carbon-avoided')).toBeNull();
  });

  it('gives the emissions plainly when every interval has an intensity, and the export’s estimate', async () => {
    await renderPage(
      <CarbonPanel
        carbon={{ ...example, unknownConsumption: 0, unknownIntervals: 0, avoidedEstimate: 0.35 }}
      />,
    );
    expect((await screen.findByTestId('carbon-emissions')).textContent).toBe('Emissions2.2 kg CO2e');
    expect(screen.getByTestId('carbon-avoided').textContent).toBe(
      "Avoided by the export0.35 kg CO2eAn estimate at the grid's average intensity",
    );
  });

  it('says on a location’s view which meters it counts', async () => {
    await renderPage(
      <CarbonPanel carbon={example} counted={{ basis: 'mainSupply', count: 1, partial: null }} />,
    );
    expect((await screen.findByTestId('carbon')).textContent).toContain(
      "The main supply's: the other meters are sub-meters behind it.",
    );
    cleanup();
    await renderPage(
      <CarbonPanel carbon={example} counted={{ basis: 'allMeters', count: 3, partial: { known: 2 } }} />,
    );
    expect((await screen.findByTestId('carbon')).textContent).toContain('The 3 meters together');
    expect(screen.getByTestId('carbon-partial').textContent).toBe(
      'from 2 of 3 meters: the others have no data in this range and are not counted.',
    );
  });
});
