/* The sample functions the bitcode reader tests read from bitcode and also
 * call natively (tests/samples/reader_*.c, tests/unit/test_reader.c). */
#ifndef READER_SAMPLES_H
#define READER_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int8_t s_arith_i8(int8_t a, int8_t b, int op);
int16_t s_arith_i16(int16_t a, int16_t b, int op);
int32_t s_arith_i32(int32_t a, int32_t b, int op);
int64_t s_arith_i64(int64_t a, int64_t b, int op);
int32_t s_compare_i8(int8_t a, int8_t b);
int32_t s_compare_i16(int16_t a, int16_t b);
int32_t s_compare_i32(int32_t a, int32_t b);
int32_t s_compare_i64(int64_t a, int64_t b);
int64_t s_convert(int64_t x);
bool s_in_range(int64_t x, int64_t lo, int64_t hi);
int64_t s_minmax(int64_t a, int64_t b, uint32_t c, uint32_t d);

/* reader_control.c */
int64_t s_sum_to(int64_t n);
int64_t s_collatz(int64_t n);
int64_t s_switch(int64_t x);
int64_t s_fib(int64_t n);
int64_t s_op_add(int64_t a, int64_t b);
int64_t s_op_sub(int64_t a, int64_t b);
int64_t s_op_mul(int64_t a, int64_t b);
int64_t s_apply(int64_t op, int64_t a, int64_t b);
int64_t s_strlen_plus(const char *s, int64_t k);
const char *s_greeting(int64_t i);
int64_t s_table(int64_t i);

/* reader_memory.c */
typedef struct SampleStruct {
    char a;
    int64_t b;
    short c;
    double d;
    int32_t arr[4];
} SampleStruct;

int64_t s_get_c(const SampleStruct *p);
double s_struct_sum(const SampleStruct *p);
int64_t s_array_sum(const int32_t *a, int64_t n);
double s_struct_array(const SampleStruct *ps, int64_t i, int64_t j);
void s_copy_struct(SampleStruct *dst, const SampleStruct *src);
void s_zero_struct(SampleStruct *p);
int64_t s_local_array(int64_t n);
double s_poly(double x, int32_t n);
float s_float_mix(float f, int64_t i, double d);
int64_t s_float_compare(double a, double b);

/* reader_hints.c */
int64_t s_mini_interp(const uint8_t *code, int64_t len, int64_t acc, int64_t *steps);
int64_t s_hint_ptr(const int64_t *p);

#endif
