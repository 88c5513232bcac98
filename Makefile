# Short commands over CMake. `make run`, `make test` and `make bench` install
# missing Debian packages first (scripts/install-deps.sh). A build directory
# counts as configured once CMake has generated its Makefile, so a configure
# that failed (a package missing) runs again on the next `make`.
BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
AARCH64_BUILD ?= build-aarch64
FUZZ_SECONDS ?= 60
FUZZ_RANDOM_SECONDS ?= 600
FUZZ_CRASHES ?= $(FUZZ_BUILD)/crashes
JOBS       ?= $(shell nproc)
CTEST_ARGS ?=

.PHONY: all deps deps-bench deps-aarch64 build asan aarch64 test-aarch64 fuzz-build fuzz run test test-fast proofs bench bench-general bench-unseen clean format

all: build

deps:
	@scripts/install-deps.sh

deps-bench:
	@scripts/install-deps.sh --bench

$(BUILD)/Makefile:
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo

build: $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

$(ASAN_BUILD)/Makefile:
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DJITGEN_SANITIZE=ON

asan: $(ASAN_BUILD)/Makefile
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# The AArch64 cross build (docs/aarch64.md): clang-19 and lld against an
# arm64 sysroot of Debian packages in $(AARCH64_BUILD)/sysroot; the programs
# run under qemu-aarch64-static ($(AARCH64_BUILD)/tlc-run ARGS runs tlc).
deps-aarch64:
	@scripts/install-aarch64-deps.sh $(AARCH64_BUILD)/sysroot

$(AARCH64_BUILD)/Makefile:
	cmake -S . -B $(AARCH64_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-toolchain.cmake \
	  -DJITGEN_AARCH64_SYSROOT=$(abspath $(AARCH64_BUILD))/sysroot

aarch64: deps-aarch64 $(AARCH64_BUILD)/Makefile
	cmake --build $(AARCH64_BUILD) -j $(JOBS)

# The AArch64 build's suite under qemu: every test that is not x86-64's own.
test-aarch64: aarch64
	cd $(AARCH64_BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The libFuzzer targets (docs/testing.md, "Fuzzing"): clang-19 with ASan,
# UBSan and libFuzzer, in a build of their own.
$(FUZZ_BUILD)/Makefile:
	CC=clang-19 cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DJITGEN_FUZZ=ON

fuzz-build: deps $(FUZZ_BUILD)/Makefile
	cmake --build $(FUZZ_BUILD) -j $(JOBS)

# Every fuzz target for FUZZ_SECONDS each, then the random differential
# campaign for FUZZ_RANDOM_SECONDS; what they find goes to FUZZ_CRASHES.
# Fails if anything was found (after running both).
fuzz: fuzz-build build
	@st=0; fuzz/run_targets.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_CRASHES) || st=1; \
	fuzz/random_campaign.sh $(BUILD)/tlc $(BUILD)/tlcgen $(FUZZ_RANDOM_SECONDS) \
	  $(FUZZ_CRASHES)/random || st=1; exit $$st

run: deps build
	$(BUILD)/tlc run --jit-threshold=0 examples/factorial.tlc 20
	$(BUILD)/tlc run examples/accumulator.tlc 100000000

# The whole suite: the normal build, then the same tests under ASan+UBSan.
test: deps build asan
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)
	cd $(ASAN_BUILD) && ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=0 \
	  UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# Only the normal build's suite (quicker while working).
test-fast: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) $(CTEST_ARGS)

# The Z3 proofs of the rewrites, and their translation validation on many
# more random graphs than `make test` runs (docs/testing.md, "Proofs").
Z3_GRAPHS ?= 100000
proofs: deps build
	$(BUILD)/tests/test_proofs
	Z3_GRAPHS=$(Z3_GRAPHS) $(BUILD)/tests/test_translation

# The benchmarks (docs/benchmarks.md): writes bench/results.csv,
# bench/RESULTS.md, bench/results.png and the README's table, then the
# general suite's results (bench-general below). BENCH_* variables in the
# environment change the settings.
bench: deps-bench build
	BENCH_COMMAND="make bench" bench/run.sh $(BUILD)/tlc $(BUILD)/bench
	BENCH_GENERAL_COMMAND="make bench" bench/general/run.sh $(BUILD)/tlc
	BENCH_GENERAL_COMMAND="make bench" BENCH_GENERAL_SUITE=bench/unseen \
		BENCH_GENERAL_PEERS="$${BENCH_GENERAL_PEERS-lua5.4 luajit}" bench/general/run.sh $(BUILD)/tlc

# Only the general suite (docs/benchmarks.md, "The general suite"): writes
# bench/general/RESULTS.md and bench/general/results.csv. BENCH_GENERAL_*
# variables in the environment change the settings.
bench-general: deps-bench build
	BENCH_GENERAL_COMMAND="make bench-general" bench/general/run.sh $(BUILD)/tlc

# The held-out programs (docs/benchmarks.md, "Held-out programs") through the
# same harness: writes bench/unseen/RESULTS.md and bench/unseen/results.csv.
bench-unseen: deps-bench build
	BENCH_GENERAL_COMMAND="make bench-unseen" BENCH_GENERAL_SUITE=bench/unseen \
		BENCH_GENERAL_PEERS="$${BENCH_GENERAL_PEERS-lua5.4 luajit}" bench/general/run.sh $(BUILD)/tlc

format:
	clang-format -i $$(git ls-files '*.c' '*.h')

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(AARCH64_BUILD)
