#!/bin/bash
# Resumable: each output is written atomically by spbias predict; one that exists is skipped.
source /work/main/.venv/bin/activate; export PYTHONPATH=/work/h-selection
cd /work/h-selection
R=results/smollm2-135m/stage2-runs/smollm2
log=/tmp/sel/out/times.log
job() { # out run testset
  if [ -f "$1" ]; then echo "$(date -Is) skip $1" >> $log; return; fi
  local t0=$(date +%s)
  nice -n 10 spbias predict --run "$2" --testset "$3" --out "$1" > "$1.log" 2>&1; local rc=$?
  echo "$(date -Is) rc=$rc $(( $(date +%s) - t0 ))s $1" >> $log
}
job /tmp/sel/out/validation_sst5.tsv $R/sst5/lr0.01-n8-s1001-1015 /tmp/sel/val/sst5.tsv
job /tmp/sel/out/validation_semeval.tsv $R/semeval/lr0.001-n8-s1001-1015 /tmp/sel/val/semeval.tsv
for part in small big; do for set in sst5 semeval; do
  job /tmp/sel/out/${part}_${set}.tsv $(ls -d /tmp/sel/runs/$set-rest/lr*) /tmp/sel/subset/$part.tsv
done; done
echo "$(date -Is) all done" >> $log
