# Samples /proc/<pid>/task/*/schedstat (CPU and run-queue wait, ms) of every thread of the bench's
# processes (Kickstand, the sandbox, the generator) every 20 ms; one JSON line per sample.
#   python3 sched-sampler.py <out.jsonl> <seconds>   (start it just before the bench)
import os,sys,time,json
out=open(sys.argv[1],'w'); dur=float(sys.argv[2])
pats={'kickstand':'apps/single-machine/dist/main.js','sandbox':'kick-sandbox/dist/main.js','generator':'tools/bench/dist/main.js'}
def scan():
    found={}
    for p in os.listdir('/proc'):
        if not p.isdigit(): continue
        try: cl=open(f'/proc/{p}/cmdline','rb').read().replace(b'\0',b' ').decode()
        except Exception: continue
        for k,v in pats.items():
            if v in cl and ('python' not in cl): found[int(p)]=k
    return found
procs={};names={};prev={}
end=time.time()+dur; lastscan=0
while time.time()<end:
    now=time.time()
    if now-lastscan>1: procs=scan(); lastscan=now
    row={'t':round(now*1000,1)}
    for pid,role in procs.items():
        try: tids=os.listdir(f'/proc/{pid}/task')
        except Exception: continue
        for tid in tids:
            key=(pid,tid)
            try:
                cpu,wait,_=open(f'/proc/{pid}/task/{tid}/schedstat').read().split()
                if key not in names: names[key]=open(f'/proc/{pid}/task/{tid}/comm').read().strip()
            except Exception: continue
            cpu=int(cpu);wait=int(wait)
            if key in prev:
                dc=cpu-prev[key][0]; dw=wait-prev[key][1]
                if dc or dw: row[f'{role}:{pid}:{tid}:{names[key]}']=[round(dc/1e6,2),round(dw/1e6,2)]
            prev[key]=(cpu,wait)
    out.write(json.dumps(row)+'\n')
    time.sleep(max(0,0.02-(time.time()-now)))
