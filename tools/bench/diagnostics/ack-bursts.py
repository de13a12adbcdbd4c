# The slow acks (> 5 ms) grouped into bursts (30 ms apart), each with the threads busy and waiting
# for a core meanwhile and the GCs / loop gaps the thread probe saw (docs/performance.md, "The ack's tail").
#   python3 ack-bursts.py <BENCH_ACK_TRACE file> <probe dir> <sched-sampler.jsonl> <kickstand pid> <generator pid> <sandbox pid>
import json,sys,collections,glob,os
trace,pdir,ss,kpid,gpid,spid=sys.argv[1:7]
acks=[tuple(map(float,l.split(','))) for l in open(trace) if l.strip()]
rows=[json.loads(l) for l in open(ss)]
t0=acks[0][0]
def load(f):
    g=[];c=[]
    for line in open(os.path.join(pdir,f)):
        d=json.loads(line); g+=d['gaps']; c+=d['gcs']
    return g,c
G=load(f'main.js-{gpid}-main.jsonl'); O=load(f'main.js-{kpid}-main.jsonl'); F=load(f'node-{kpid}-t1.jsonl')
tail=sorted([a for a in acks if a[2]>5])
# bursts: tail acks within 30 ms of each other
bursts=[];cur=[]
for a in tail:
    if cur and a[0]-cur[-1][0]>30: bursts.append(cur);cur=[]
    cur.append(a)
if cur: bursts.append(cur)
print('bursts',len(bursts),'sizes',sorted([len(b) for b in bursts])[-15:])
prev=None;bins=[]
for r in rows:
    if prev: bins.append((prev,r['t'],r))
    prev=r['t']
names={}
def short(k):
    role,pid,tid,_=k.split(':',3)
    if pid not in (kpid,gpid,spid): return 'other-helper'
    return f"{role[:3]}:{'main' if pid==tid else int(tid)-int(pid)}"
for b in sorted(bursts,key=lambda b:-len(b))[:10]:
    a=b[0][0]; e=max(x[0]+x[2] for x in b)
    busy=collections.Counter(); wait=collections.Counter()
    for s,t,r in bins:
        if s<=e and t>=a-20:
            for k,v in r.items():
                if k!='t': busy[short(k)]+=v[0]; wait[short(k)]+=v[1]
    span=e-a+20
    def ev(lst,kinds=False): return [(round(x[0]-a),round(x[1],1),x[2]) if kinds else (round(x[0]-a),round(x[1],1)) for x in lst if a-50<=x[0]<=e]
    print(f"\n+{(a-t0)/1000:.2f}s {len(b)} acks, max {max(x[2] for x in b):.1f} ms, max write lag {max(x[1] for x in b):.1f}, span {span:.0f} ms")
    print('  busy ms:',', '.join(f'{k} {v:.0f}' for k,v in busy.most_common(9)))
    print('  runq wait ms:',', '.join(f'{k} {v:.0f}' for k,v in wait.most_common(6)))
    print('  gen gc',ev(G[1],1),'gaps',ev(G[0])[:4],'| owner gc',ev(O[1],1)[:5],'| front gc',ev(F[1],1),'gaps',ev(F[0])[:4])
