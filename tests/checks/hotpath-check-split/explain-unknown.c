// hotpath-args: -std=c11
// hotpath-options: Explain=chek_bounds
// CHECK-MESSAGES: remark: explain 'chek_bounds': no function or macro of that name is defined or declared in this translation unit [hotpath-check-split]
// Explain mode on a name the translation unit does not know (a typo): it
// says so, rather than nothing.
static int check_bounds(unsigned long off) { return off > 4096; }
int get(unsigned long off) { return check_bounds(off); }
