#!/bin/sh
# A busybox shell workload for the isolate-everything tests (sci_workload.sh
# and the stress mode): files, pipes, fork/exec, vfork (xargs, timeout and
# time spawn with vfork), sh -c, subshells, command substitution, a FIFO,
# signals to a trapping subshell, sleeps, and loops that run a few hundred
# commands.  What it prints depends on nothing but this script (no pids,
# times or paths), so a run under isolation must print exactly what the
# native run prints.
# usage: workload.sh DIR    (DIR: a scratch directory, emptied first)
set -u
[ $# = 1 ] || { echo "usage: workload.sh DIR" >&2; exit 2; }
mkdir -p "$1" && cd "$1" || exit 1
rm -rf w && mkdir w && cd w || exit 1

echo "== files"
mkdir src dst
i=0
while [ $i -lt 50 ]; do
	printf 'file %d square %d\n' $i $((i * i)) >src/f$i
	echo "appended to $i" >>src/f$i
	cat src/f$i >>all.txt
	cp src/f$i dst/g$i
	mv dst/g$i dst/h$i
	i=$((i + 1))
done
echo "src: $(ls src | wc -l) files, dst: $(ls dst | wc -l) files"
ls dst | sort -t h -k 2 -n | head -n 3
find . -name 'f1*' | sort
find . -type f | sort | md5sum
wc -l all.txt
md5sum all.txt
sort -r all.txt | head -n 3
cat src/f7 src/f8
cmp src/f9 dst/h9 && echo "f9 copied intact"
ln -s src/f3 link3 && readlink link3 && cat link3
touch empty && [ -e empty ] && [ ! -s empty ] && echo "empty file"
chmod 600 src/f4 && stat -c '%a %s %n' src/f4
rm dst/h1*
echo "dst after rm h1*: $(ls dst | wc -l) files"
rm -r dst
[ -d dst ] || echo "dst removed"

echo "== pipes"
seq 1 200 | awk '{ s += $1 } END { print "sum 1..200 =", s }'
seq 1 500 | grep 7 | wc -l
tr a-z A-Z <all.txt | sed -n '3p;4p'
yes hello | head -n 1000 | uniq -c | sed 's/^ *//'
dd if=/dev/zero bs=1024 count=256 2>/dev/null | md5sum
seq 1 20000 | sort -rn | head -n 2
cat all.txt all.txt all.txt | gzip -c | gunzip -c | md5sum
tar cf - src | tar tf - | sort | tail -n 2
mkfifo fifo
(echo "through the fifo" >fifo) &
cat fifo
wait
head -c 4096 /dev/urandom | wc -c
grep -c '^Name:' /proc/self/status

echo "== processes"
sh -c 'echo "sh -c says $0 $1"' zero one
(cd src && echo "subshell sees $(ls | wc -l) files")
n=$(ls src | wc -l)
echo "command substitution: $n"
sh -c 'exit 7'
echo "sh -c exit status $?"
x=$( (exit 5) ) || echo "subshell exit status $?"
for k in 1 2 3 4 5; do
	v=$(echo $k | sed 's/^/v/')
	printf '%s ' "$v"
done
echo
echo src/f3 src/f4 | xargs cat
echo 1 2 3 | xargs -n 1 echo item
timeout 10 cat src/f5
time true 2>/dev/null
env VAR=abc sh -c 'echo "env passed VAR=$VAR"'
(exec cat src/f6)
for j in 1 2 3 4; do
	(echo "background $j" >bg.$j) &
done
wait
cat bg.1 bg.2 bg.3 bg.4
i=0 sum=0
while [ $i -lt 100 ]; do
	sum=$(expr $sum + $i)
	i=$((i + 1))
done
echo "expr sum 0..99 = $sum"
i=0
while [ $i -lt 30 ]; do
	sh -c "echo $i" >>nums
	i=$((i + 1))
done
echo "sh -c runs: $(wc -l <nums), last $(tail -n 1 nums)"

echo "== signals"
( trap 'echo USR1 >>got' USR1
  trap 'echo TERM >>got; exit 3' TERM
  : >ready
  while :; do sleep 0.1; done ) &
p=$!
while [ ! -e ready ]; do sleep 0.1; done
kill -USR1 $p
while [ ! -s got ]; do sleep 0.1; done
kill -TERM $p
wait $p
echo "trapping subshell exit status $?"
cat got
sh -c 'kill -TERM $$; echo not reached'
echo "self-killed sh: status $?"
sh -c 'trap "echo caught HUP" HUP; kill -HUP $$; echo after HUP'
sh -c 'trap "echo exit trap ran" EXIT; exit 0'
# ash prints "Terminated" for this background job only when it reaps it
# inside `wait`, not when it reaped it before: a race, so the message is
# kept out of the output (the status is not).
(
	sleep 10 &
	p=$!
	kill $p
	wait $p
	echo "killed sleep: status $?"
) 2>/dev/null
timeout -s KILL 0.2 sleep 5
echo "timeout -s KILL: status $?"
kill -0 $$ && echo "kill -0 self: alive"

echo "== sleeps"
for s in 1 2 3; do
	sleep 0.1
	echo "slept $s"
done

cd .. && rm -rf w
echo "== done"
