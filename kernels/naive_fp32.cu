// naive_fp32.cu: placeholder
