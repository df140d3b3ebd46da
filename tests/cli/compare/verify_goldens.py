#!/usr/bin/env python3
# Not run by ctest: re-derives the numbers in 01-04, 08 and 11 of this folder
# without qrelkit (t and F tails by numeric integration of the densities,
# Wilcoxon / sign / randomisation p-values by enumerating every sign pattern).
# Independent check of the compare golden numbers: plain Python, numeric
# integration of densities instead of continued fractions, brute-force enumeration.
import math, itertools
A=[0.10,0.50,0.90,0.30,0.45,0.70,0.05,0.60]; B=[0.40,0.50,0.60,0.45,0.35,0.55,0.30,0.50]
C=[0.2,0.1,0.3,0.25,0.3,0.1,0.05,0.4]
runs={'A':A,'B':B,'C':C}
def simpson(f,a,b,n=200000):
    h=(b-a)/n; s=f(a)+f(b)
    for i in range(1,n): s+=(4 if i%2 else 2)*f(a+i*h)
    return s*h/3
def tpdf(x,df): return math.exp(math.lgamma((df+1)/2)-math.lgamma(df/2))/math.sqrt(df*math.pi)*(1+x*x/df)**(-(df+1)/2)
def t2(t,df): return 2*(0.5-simpson(lambda x:tpdf(x,df),0,abs(t)))
def fpdf(x,d1,d2):
    if x<=0: return 0
    return math.exp(0.5*d1*math.log(d1*x)+0.5*d2*math.log(d2)-0.5*(d1+d2)*math.log(d1*x+d2)-math.log(x)-(math.lgamma(d1/2)+math.lgamma(d2/2)-math.lgamma((d1+d2)/2)))
def fcdf(x,d1,d2): return simpson(lambda u:fpdf(u,d1,d2),1e-12,x)
def mean(v): return sum(v)/len(v)
def sd(v): m=mean(v); return math.sqrt(sum((x-m)**2 for x in v)/(len(v)-1))
def midranks(v):
    s=sorted(v); return [ (2*s.index(x)+1+s.count(x))/2 for x in v]
pairs=[('A','B'),('A','C'),('B','C')]
for a,b in pairs:
    d=[x-y for x,y in zip(runs[a],runs[b])]; n=len(d)
    t=mean(d)/(sd(d)/math.sqrt(n))
    print(a,b,'t',round(t,6),'p',round(t2(t,n-1),6),'effect',round(mean(d)/sd(d),6))
    nz=[x for x in d if abs(x)>1e-12]; r=midranks([abs(x) for x in nz])
    w=sum(rr for rr,x in zip(r,nz) if x>0); cnt_lo=cnt_hi=0
    for signs in itertools.product([0,1],repeat=len(nz)):
        s=sum(rr for rr,sg in zip(r,signs) if sg)
        cnt_lo+= s<=w+1e-9; cnt_hi+= s>=w-1e-9
    print('  wilcoxon W+',w,'n',len(nz),'p',round(min(1,2*min(cnt_lo,cnt_hi)/2**len(nz)),6))
    pos=sum(1 for x in nz if x>0); m=len(nz)
    lo=sum(math.comb(m,k) for k in range(pos+1))/2**m; hi=sum(math.comb(m,k) for k in range(pos,m+1))/2**m
    print('  sign n+',pos,'p',round(min(1,2*min(lo,hi)),6))
    obs=abs(sum(d)); c=0
    for signs in itertools.product([1,-1],repeat=n):
        c+= abs(sum(s*x for s,x in zip(signs,d)))>=obs-1e-9
    print('  perm sum',round(sum(d),6),'p',round(c/2**n,6))
    x,y=runs[a],runs[b]; F=sd(x)**2/sd(y)**2; cf=fcdf(F,7,7)
    print('  F',round(F,6),'p',round(2*min(cf,1-cf),6), ' sdratio', round(max(sd(x),sd(y))/min(sd(x),sd(y)),6),'p',round(2*(1-fcdf(max(sd(x),sd(y))/min(sd(x),sd(y)),7,7)),6))
    for centre in ('mean','median'):
        zs=[]
        for g in (x,y):
            cgr= mean(g) if centre=='mean' else sorted(g)[3]/2+sorted(g)[4]/2
            zs.append([abs(v-cgr) for v in g])
        zb=[mean(z) for z in zs]; gr=mean(zs[0]+zs[1])
        W=14*sum(8*(q-gr)**2 for q in zb)/sum(sum((v-q)**2 for v in z) for z,q in zip(zs,zb))
        print('  levene',centre,round(W,6),'p',round(1-fcdf(W,1,14),6))
for W in (5.526866,4.093567,0.456522,5.328058):
    print('levene p via t(14):',W, round(t2(math.sqrt(W),14),6))
