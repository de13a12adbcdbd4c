# Which threads were busy while a slow ack was pending (docs/performance.md, "The ack's tail").
#   python3 ack-attribution.py <BENCH_ACK_TRACE file> <sched-sampler.jsonl> <kickstand pid> <generator pid> <sandbox pid> [ms] [front tid]
# A tail ack (> ms) is put on the process whose helper threads (neither its main thread nor the
# front door thread: V8's GC/compiler workers, libuv's pool) ran >= 4 ms in its 20-ms bins; the same
# for 3,000 random acks gives the base rate.
import json,sys,collections
trace,ss,kpid,gpid,spid=sys.argv[1:6]; thr=float(sys.argv[6]) if len(sys.argv)>6 else 5
front_tid=sys.argv[7] if len(sys.argv)>7 else None
acks=[tuple(map(float,l.split(','))) for l in open(trace) if l.strip()]
rows=[json.loads(l) for l in open(ss)]
prev=None;bins=[]
for r in rows:
    if prev: bins.append((prev,r['t'],r))
    prev=r['t']
import bisect
starts=[b[0] for b in bins]
def cls(k):
    role,pid,tid,_=k.split(':',3)
    if pid not in (kpid,gpid,spid): return None
    if pid==tid: return None
    if pid==kpid and tid==front_tid: return None  # the front door thread
    return {kpid:'kickstand GC/helper threads',gpid:'generator GC/helper threads',spid:'sandbox GC/helper threads'}[pid]
def attr(a,e):
    c=collections.Counter()
    i=max(0,bisect.bisect_left(starts,a-20)-1)
    while i<len(bins) and bins[i][0]<=e:
        for k,v in bins[i][2].items():
            if k=='t': continue
            x=cls(k)
            if x: c[x]+=v[0]
        i+=1
    return c
res=collections.Counter(); base=collections.Counter()
tail=[a for a in acks if a[2]>thr]
for due,wl,ak,st in tail:
    c=attr(due,due+ak)
    top=[k for k,v in c.most_common() if v>=4]
    res[top[0] if top else 'no helper thread busy (>= 4 ms)']+=1
import random
random.seed(1)
samp=random.sample(acks,3000)
for due,wl,ak,st in samp:
    c=attr(due,due+max(ak,5))
    top=[k for k,v in c.most_common() if v>=4]
    base[top[0] if top else 'no helper thread busy (>= 4 ms)']+=1
print(f'tail acks > {thr} ms: {len(tail)} of {len(acks)}')
for k,v in res.most_common(): print(f'  {k:36s} {v:5d} ({v*100/len(tail):.0f} %)   random acks: {base[k]*100/len(samp):.0f} %')
