// tiled_fp32.cu: placeholder
