// The popup: ranks the current tab (or ?tab=<id>) and lists its top elements; highlights them on the page.
import type { RankResult } from '../src/schema/snapshot.ts';
import type { Reply, Request } from './messages.ts';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
let latest: RankResult | undefined;

async function tabId(): Promise<number> {
  const pinned = new URLSearchParams(location.search).get('tab');
  if (pinned) return Number(pinned);
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  if (tab?.id === undefined) throw new Error('no active tab');
  return tab.id;
}

async function send(msg: Request): Promise<Extract<Reply, { ok: true }>> {
  const reply = (await chrome.runtime.sendMessage(msg)) as Reply;
  if (!reply.ok) throw new Error(reply.error);
  return reply;
}

/** The score the list is in the order of: with the goal rerank applied, P(goal) (the fused order, the
 *  model's logit at the current fusion weight); otherwise importance. */
function scoreOf(result: RankResult): { label: string; of: (e: RankResult['elements'][number]) => string } {
  if (result.ml_rerank?.applied) return { label: 'P(goal)', of: (e) => (typeof e.ml_probability === 'number' ? `${Math.round(e.ml_probability * 100)}%` : '–') };
  return { label: 'importance', of: (e) => String(e.importance) };
}

function render(result: RankResult): void {
  const list = $('elements');
  const score = scoreOf(result);
  $('score-label').textContent = score.label;
  list.replaceChildren(...result.elements.map((e) => {
    const li = document.createElement('li');
    li.className = e.is_occluded ? 'occluded' : '';
    li.dataset.id = String(e.id);
    li.dataset.role = e.role;
    for (const [cls, text] of [['id', `#${e.id}`], ['role', e.role], ['text', e.text || e.name || ''], ['imp', score.of(e)]]) {
      const span = document.createElement('span');
      span.className = cls;
      span.textContent = text;
      li.append(span);
    }
    return li;
  }));
  $('status').textContent = `${result.elements.length} of ${result.diagnostics?.metrics.raw_elements_count ?? '?'} elements` +
    (result.modal_detected ? ' · modal detected' : '') + (result.ml_rerank?.applied ? ' · goal rerank, by P(goal)' : ' · by importance') + ` · confidence ${result.diagnostics?.confidence ?? '?'}`;
  document.body.dataset.state = 'ranked';
}

async function rank(): Promise<void> {
  try {
    $('status').textContent = 'Ranking…';
    const goal = $<HTMLInputElement>('goal').value.trim() || undefined;
    const reply = await send({ type: 'snapshot', tabId: await tabId(), limit: 25, goal });
    if (!reply.result) throw new Error('no result');
    latest = reply.result;
    render(latest);
  } catch (err) {
    $('status').textContent = `Could not rank this page: ${(err as Error).message}`;
    document.body.dataset.state = 'error';
  }
}

$('rank').addEventListener('click', () => void rank());
$('highlight').addEventListener('click', async () => { if (latest) await send({ type: 'highlight', tabId: await tabId(), result: latest }); });
$('clear').addEventListener('click', async () => { await send({ type: 'clear', tabId: await tabId() }); });
void rank();
