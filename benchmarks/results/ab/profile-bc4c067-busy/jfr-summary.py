import sys,re,collections
txt=open(sys.argv[1]).read()
events=txt.split('jdk.ExecutionSample')[1:]
top=collections.Counter(); incl=collections.Counter(); threads=collections.Counter()
for ev in events:
    m=re.search(r'sampledThread = "([^"]*)"',ev); th=m.group(1) if m else '?'
    th='worker' if th.startswith('bench') or th.startswith('pool-') else ('producer' if 'jmh-worker' in th else th)
    threads[th]+=1
    frames=re.findall(r'^\s+([\w$.<>]+\.[\w$<>]+)\(',ev,re.M)
    if frames: top[(th,frames[0].replace('java.util.concurrent.','j.u.c.').replace('io.github.poolpilot.','pp.'))]+=1
    for f in set(frames):
        if ('poolpilot' in f and 'benchmarks.ExecutorOverheadBenchmark' not in f) or 'CountingFloor' in f: incl[(th,f.replace('io.github.poolpilot.','pp.'))]+=1
print('samples by thread', dict(threads))
print('-- top frames (self)')
for k,v in top.most_common(22): print(v,k)
print('-- poolpilot/control frames (inclusive)')
for k,v in incl.most_common(16): print(v,k)
