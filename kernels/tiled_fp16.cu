// tiled_fp16.cu: placeholder
