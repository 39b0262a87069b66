import { storedToken } from './api.js';
import { el } from './dom.js';

/** The imports whose items are documentary units and whose scope holds them (a repository or a unit). */
const EAD_ENDPOINTS = new Set(['ead', 'ead-sync']);

export function importsUnits(endpoint: string): boolean {
  return EAD_ENDPOINTS.has(endpoint);
}

/**
 * A button that fetches an export with the console's token (a plain link could not send it) and
 * hands it to the browser as a download; the ops role may read the exports.
 */
function downloadButton(label: string, path: string, fileName: string): HTMLButtonElement {
  const button = el('button', { type: 'button' }, label);
  button.addEventListener('click', () => {
    void (async () => {
      button.disabled = true;
      try {
        const response = await fetch(path, { headers: { Authorization: `Bearer ${storedToken() ?? ''}` } });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const url = URL.createObjectURL(await response.blob());
        const link = el('a', { href: url, download: fileName });
        link.click();
        URL.revokeObjectURL(url);
        button.textContent = label;
      } catch (error) {
        button.textContent = `${label}: ${(error as Error).message}`;
      } finally {
        button.disabled = false;
      }
    })();
  });
  return button;
}

/** A documentary unit's finding aid, with every unit below it, in EAD 2002 and EAD3. */
export function unitExports(unitId: string): HTMLElement {
  const id = encodeURIComponent(unitId);
  return el(
    'span',
    { class: 'exports' },
    downloadButton('EAD 2002', `/export/ead/${id}`, `${unitId}.xml`),
    ' ',
    downloadButton('EAD3', `/export/ead3/${id}`, `${unitId}-ead3.xml`),
  );
}

/** A repository's top-level units as a ZIP of finding aids. */
export function repositoryExports(repositoryId: string): HTMLElement {
  const id = encodeURIComponent(repositoryId);
  return el(
    'span',
    { class: 'exports' },
    downloadButton('EAD 2002 ZIP', `/export/repositories/${id}/ead`, `${repositoryId}-ead.zip`),
    ' ',
    downloadButton('EAD3 ZIP', `/export/repositories/${id}/ead3`, `${repositoryId}-ead3.zip`),
  );
}
