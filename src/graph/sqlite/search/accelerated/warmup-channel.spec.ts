import { WarmedSearch, WarmupPlan } from './search-warmup';
import { ServingStore, WarmupChannel } from './warmup-channel';

/** Turns of the event loop, in which channel messages are delivered. */
async function turn(): Promise<void> {
  for (let turns = 0; turns < 3; turns++) await new Promise((resolve) => setImmediate(resolve));
}

function warmed(version: number, phrases: string[]): WarmedSearch {
  const order = { rids: new Int32Array(0), positions: new Int32Array(0), typeCodes: new Uint8Array(0) };
  return {
    version,
    itemOrder: order,
    postings: phrases.map((phrase) => [phrase, { rows: new Float64Array(0), scores: new Float64Array(0) }]),
  } as unknown as WarmedSearch;
}

/** A serving side that plans `phrases` and records what it is handed. */
function servingStore(phrases: string[]): ServingStore & { accepted: WarmedSearch[] } {
  const accepted: WarmedSearch[] = [];
  return { accepted, plan: () => ({ phrases }), accept: (search) => void accepted.push(search) };
}

describe('WarmupChannel', () => {
  const file = `/tmp/warmup-channel-${process.pid}.db`;
  const opened: WarmupChannel[] = [];
  const open = (store: ServingStore) => {
    const channel = new WarmupChannel(file, store);
    opened.push(channel);
    return channel;
  };
  const idle = servingStore([]);
  afterEach(() => {
    for (const channel of opened.splice(0)) channel.close();
  });

  it('has a writer read the plan of a store that serves searches and hands it over before it resolves', async () => {
    const serving = servingStore(['"archive"', '"letters"']);
    open(serving).serve();
    const writer = open(idle);
    await turn();
    const plans: WarmupPlan[] = [];

    await writer.warmOthers(async (plan) => {
      plans.push(plan);
      return warmed(7, plan.phrases);
    });

    expect(plans).toEqual([{ phrases: ['"archive"', '"letters"'] }]);
    expect(
      serving.accepted.map((search) => [search.version, search.postings.map(([phrase]) => phrase)]),
    ).toEqual([[7, ['"archive"', '"letters"']]]);
  });

  it('learns of a store that served before it opened, and of none that does not serve', async () => {
    const serving = servingStore(['"a"']);
    open(serving).serve();
    open(servingStore(['"b"']));
    await turn();
    const writer = open(idle);
    await turn();
    const read = jest.fn(async (plan: WarmupPlan) => warmed(1, plan.phrases));

    await writer.warmOthers(read);

    expect(read).toHaveBeenCalledTimes(1);
    expect(serving.accepted).toHaveLength(1);
  });

  it('reads nothing when no store serves searches', async () => {
    const writer = open(idle);
    const read = jest.fn(async (plan: WarmupPlan) => warmed(1, plan.phrases));
    await writer.warmOthers(read);
    expect(read).not.toHaveBeenCalled();
  });

  it('stops waiting for a serving store that closes before it answers', async () => {
    const serving = open(servingStore(['"a"']));
    serving.serve();
    const writer = open(idle);
    await turn();
    let closed = false;

    await writer.warmOthers(async (plan) => {
      serving.close();
      closed = true;
      return warmed(1, plan.phrases);
    });

    expect(closed).toBe(true);
    // Forgotten: the next write reads nothing for it.
    const read = jest.fn(async (plan: WarmupPlan) => warmed(2, plan.phrases));
    await writer.warmOthers(read);
    expect(read).not.toHaveBeenCalled();
  });
});
