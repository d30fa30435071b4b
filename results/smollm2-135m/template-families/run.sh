#!/usr/bin/env bash
# Score the published study's top-5 SST-5 prompts (SmolLM2-135M, stage 2) on three race template families, each with the
# unmarked control, then the gap tables (t and bootstrap, --reference unmarked) and Table 2.
# Resumable: every scored chunk is kept; run it again to go on. From the repository root:
#   bash results/smollm2-135m/template-families/run.sh
set -euo pipefail
OUT=results/smollm2-135m/template-families; W=$OUT/work; mkdir -p $W $OUT/predictions $OUT/tables
RUN=$(ls -d results/smollm2-135m/stage2-runs/smollm2/sst5/lr*-n8-s1001-1015/)
[ -f $W/czarnowska-race.tsv ] || spbias templates czarnowska --attributes race --set czarnowska --unmarked --out $W/czarnowska-race.tsv
[ -f $W/regard.tsv ]          || spbias templates regard --unmarked --out $W/regard.tsv
[ -f $W/ns-prompts.tsv ]      || spbias templates ns-prompts --unmarked --out $W/ns-prompts.tsv
for s in czarnowska-race regard ns-prompts; do
  final=$OUT/predictions/${s}_sst5.tsv.gz
  [ -f $final ] && continue
  python $OUT/chunks.py split $W/$s.tsv $W/$s          # whole templates, 125 a chunk, in a seeded random order
  mkdir -p $OUT/predictions/chunks
  for p in $W/$s/part-???.tsv; do   # a scored chunk is kept in predictions/chunks/ (published), so a fresh checkout goes on from it
    c=$OUT/predictions/chunks/$s-$(basename $p .tsv).tsv.gz
    [ -f $c ] && continue
    echo "$(date -u +%T) scoring $p"
    nice -n 10 spbias predict --run $RUN --top-k 5 --testset $p --out $W/$s/scored.tsv --force
    gzip -c $W/$s/scored.tsv > $c.part && mv $c.part $c && rm $W/$s/scored.tsv
  done
  python $OUT/chunks.py join $final $OUT/predictions/chunks/$s-part-???.tsv.gz && rm $OUT/predictions/chunks/$s-part-???.tsv.gz
done
mkdir -p $W/plain
for s in czarnowska-race regard ns-prompts; do [ -f $W/plain/${s}_sst5.tsv ] || gunzip -c $OUT/predictions/${s}_sst5.tsv.gz > $W/plain/${s}_sst5.tsv; done
for ci in t bootstrap; do
  [ -f $OUT/tables/gaps_${ci}.csv ] || spbias gaps $W/plain/*_sst5.tsv --reference unmarked --ci $ci --top-k 5 \
                                         --per-run $OUT/tables/per_run_${ci}.csv --out $OUT/tables/gaps_${ci}.csv
  [ -f $OUT/tables/table2_${ci}.csv ] || spbias table2 $OUT/tables/gaps_${ci}.csv --out $OUT/tables/table2_${ci}.csv
done
python $OUT/summary.py
echo "$(date -u +%T) done"
