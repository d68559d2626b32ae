;; One PlayerRating iteration over the nodes [lo, hi) of an incoming CSR: the Jacobi step of
;; docs/spec.md §4 as TrustCommunity.compute (./community.ts) states it, computed in WebAssembly with the
;; same sums in the same order as JavaScript would do them (WebAssembly never fuses a multiply and
;; an add), so results do not depend on where it runs, at about 2.4× the speed of the same loop in
;; JavaScript. Compiled by `npm run generate` into iterate-wasm.ts; the arrays are laid out in the
;; memory by ./kernel/memory.ts, and ./kernel.ts passes their byte offsets.
;;
;; For each node j, over its incoming entries e from rater s: num = Σ w_e · (Inf(R_s) · R_s) and
;; den = Σ f_e · Inf(R_s), next_j = num / den (0 when den is not > 0), where w_e is the entry's
;; weight and f_e = 1 (`plain`), or w_e, f_e from `weighted` and `factor` (the negative-rating
;; weight). The rater terms come in
;; one of two layouts (`positive`):
;;   - any Influence (computed in JavaScript): rater[2i] = Inf(R_i), rater[2i + 1] = Inf(R_i) · R_i;
;;   - the default Influence(R) = R for R > 0, else 0 (./params.ts, positiveInfluence), filled by
;;     `positiveRaterTerms`: rater[i] = R_i⁺, and Inf(R_i) · R_i is R_i⁺ · R_i⁺, the same number
;;     (for R_i ≤ 0 a zero whose sign cannot change a sum that starts at +0). Half the bytes to
;;     gather per edge: the iteration is bound by those gathers.
;; Pinned nodes (observers) get 1. The squared changes of nodes with at least one rating are
;; summed per block of `block` nodes (lo a multiple of it) into blockSquares[first node / block].
(module
  (import "env" "memory" (memory 1 65536 shared))
  (func (export "positiveRaterTerms") (param $values i32) (param $rater i32) (param $lo i32) (param $hi i32)
    (local $i i32) (local $r f64) (local $weight f64)
    (local.set $i (local.get $lo))
    (block $done
      (loop $nodes
        (br_if $done (i32.ge_u (local.get $i) (local.get $hi)))
        (local.set $r (f64.load (i32.add (local.get $values) (i32.shl (local.get $i) (i32.const 3)))))
        (local.set $weight (select (local.get $r) (f64.const 0) (f64.gt (local.get $r) (f64.const 0))))
        (f64.store (i32.add (local.get $rater) (i32.shl (local.get $i) (i32.const 3))) (local.get $weight))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $nodes))))
  (func (export "iterate")
    (param $offsets i32) (param $sources i32) (param $weights i32) (param $factor i32)
    (param $weighted i32) (param $pinned i32) (param $rater i32) (param $current i32)
    (param $next i32) (param $blockSquares i32) (param $lo i32) (param $hi i32)
    (param $block i32) (param $plain i32) (param $positive i32)
    (local $start i32) (local $last i32) (local $j i32) (local $begin i32) (local $e i32) (local $end i32)
    (local $at i32) (local $r f64) (local $num f64) (local $den f64) (local $value f64) (local $d f64)
    (local $squares f64)
    (local.set $start (local.get $lo))
    (block $blocksDone
      (loop $blocks
        (br_if $blocksDone (i32.ge_u (local.get $start) (local.get $hi)))
        (local.set $last (i32.add (local.get $start) (local.get $block)))
        (if (i32.gt_u (local.get $last) (local.get $hi)) (then (local.set $last (local.get $hi))))
        (local.set $squares (f64.const 0))
        (local.set $j (local.get $start))
        (block $nodesDone
          (loop $nodes
            (br_if $nodesDone (i32.ge_u (local.get $j) (local.get $last)))
            (if (i32.eq (i32.load8_u (i32.add (local.get $pinned) (local.get $j))) (i32.const 1))
              (then
                (f64.store (i32.add (local.get $next) (i32.shl (local.get $j) (i32.const 3))) (f64.const 1)))
              (else
                (local.set $begin (i32.load (i32.add (local.get $offsets) (i32.shl (local.get $j) (i32.const 2)))))
                (local.set $e (local.get $begin))
                (local.set $end (i32.load offset=4 (i32.add (local.get $offsets) (i32.shl (local.get $j) (i32.const 2)))))
                (local.set $num (f64.const 0))
                (local.set $den (f64.const 0))
                (if (local.get $positive)
                  (then
                    (if (local.get $plain)
                      (then
                        (block $edgesDone
                          (loop $edges
                            (br_if $edgesDone (i32.ge_u (local.get $e) (local.get $end)))
                            (local.set $r (f64.load (i32.add (local.get $rater)
                              (i32.shl (i32.load (i32.add (local.get $sources) (i32.shl (local.get $e) (i32.const 2)))) (i32.const 3)))))
                            (local.set $num (f64.add (local.get $num)
                              (f64.mul (f64.load (i32.add (local.get $weights) (i32.shl (local.get $e) (i32.const 3))))
                                       (f64.mul (local.get $r) (local.get $r)))))
                            (local.set $den (f64.add (local.get $den) (local.get $r)))
                            (local.set $e (i32.add (local.get $e) (i32.const 1)))
                            (br $edges))))
                      (else
                        (block $edgesDone
                          (loop $edges
                            (br_if $edgesDone (i32.ge_u (local.get $e) (local.get $end)))
                            (local.set $r (f64.load (i32.add (local.get $rater)
                              (i32.shl (i32.load (i32.add (local.get $sources) (i32.shl (local.get $e) (i32.const 2)))) (i32.const 3)))))
                            (local.set $num (f64.add (local.get $num)
                              (f64.mul (f64.load (i32.add (local.get $weighted) (i32.shl (local.get $e) (i32.const 3))))
                                       (f64.mul (local.get $r) (local.get $r)))))
                            (local.set $den (f64.add (local.get $den)
                              (f64.mul (f64.load (i32.add (local.get $factor) (i32.shl (local.get $e) (i32.const 3)))) (local.get $r))))
                            (local.set $e (i32.add (local.get $e) (i32.const 1)))
                            (br $edges))))))
                  (else
                    (if (local.get $plain)
                      (then
                        (block $edgesDone
                          (loop $edges
                            (br_if $edgesDone (i32.ge_u (local.get $e) (local.get $end)))
                            (local.set $at (i32.add (local.get $rater)
                              (i32.shl (i32.load (i32.add (local.get $sources) (i32.shl (local.get $e) (i32.const 2)))) (i32.const 4))))
                            (local.set $num (f64.add (local.get $num)
                              (f64.mul (f64.load (i32.add (local.get $weights) (i32.shl (local.get $e) (i32.const 3))))
                                       (f64.load offset=8 (local.get $at)))))
                            (local.set $den (f64.add (local.get $den) (f64.load (local.get $at))))
                            (local.set $e (i32.add (local.get $e) (i32.const 1)))
                            (br $edges))))
                      (else
                        (block $edgesDone
                          (loop $edges
                            (br_if $edgesDone (i32.ge_u (local.get $e) (local.get $end)))
                            (local.set $at (i32.add (local.get $rater)
                              (i32.shl (i32.load (i32.add (local.get $sources) (i32.shl (local.get $e) (i32.const 2)))) (i32.const 4))))
                            (local.set $num (f64.add (local.get $num)
                              (f64.mul (f64.load (i32.add (local.get $weighted) (i32.shl (local.get $e) (i32.const 3))))
                                       (f64.load offset=8 (local.get $at)))))
                            (local.set $den (f64.add (local.get $den)
                              (f64.mul (f64.load (i32.add (local.get $factor) (i32.shl (local.get $e) (i32.const 3))))
                                       (f64.load (local.get $at)))))
                            (local.set $e (i32.add (local.get $e) (i32.const 1)))
                            (br $edges)))))))
                (local.set $value
                  (if (result f64) (f64.gt (local.get $den) (f64.const 0))
                    (then (f64.div (local.get $num) (local.get $den)))
                    (else (f64.const 0))))
                (f64.store (i32.add (local.get $next) (i32.shl (local.get $j) (i32.const 3))) (local.get $value))
                (if (i32.gt_u (local.get $end) (local.get $begin))
                  (then
                    (local.set $d (f64.sub (local.get $value)
                      (f64.load (i32.add (local.get $current) (i32.shl (local.get $j) (i32.const 3))))))
                    (local.set $squares (f64.add (local.get $squares) (f64.mul (local.get $d) (local.get $d))))))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $nodes)))
        (f64.store
          (i32.add (local.get $blockSquares)
            (i32.shl (i32.div_u (local.get $start) (local.get $block)) (i32.const 3)))
          (local.get $squares))
        (local.set $start (local.get $last))
        (br $blocks)))))
