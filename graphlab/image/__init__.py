"""``tf.image``, built op for op as TF 2.21's ``tf.compat.v1.image`` builds it (ported from its
image_ops_impl.py: the same scopes, static shortcuts and, for images of unknown size, the same run-time shape
checks). Images are 3-D [height, width, channels] or 4-D batches.

decoding and encoding   graphlab/ops/image_ops.py (the ops, with Pillow)
resizing                bilinear, nearest, bicubic, area
geometry                cropping, padding, flips, rot90, transpose
conversions             convert_image_dtype, saturate_cast, HSV, grayscale, YIQ, YUV
adjustments             standardization, brightness, contrast, saturation, hue, gamma
measures                total_variation, image_gradients, sobel_edges, psnr
checks                  TF's checks of image arguments, shared by the above
"""
from graphlab.image.adjustments import (adjust_brightness, adjust_contrast, adjust_gamma, adjust_hue,  # noqa: F401
                                        adjust_saturation, per_image_standardization, random_brightness,
                                        random_contrast, random_hue, random_saturation)
from graphlab.image.conversions import (convert_image_dtype, grayscale_to_rgb, hsv_to_rgb, rgb_to_grayscale,  # noqa: F401
                                        rgb_to_hsv, rgb_to_yiq, rgb_to_yuv, saturate_cast, yiq_to_rgb, yuv_to_rgb)
from graphlab.image.geometry import (central_crop, crop_to_bounding_box, flip_left_right, flip_up_down,  # noqa: F401
                                     pad_to_bounding_box, random_crop, random_flip_left_right, random_flip_up_down,
                                     resize_image_with_crop_or_pad, resize_with_crop_or_pad, rot90, transpose,
                                     transpose_image)
from graphlab.image.measures import image_gradients, psnr, sobel_edges, total_variation  # noqa: F401
from graphlab.image.resizing import (ResizeMethod, resize, resize_area, resize_bicubic, resize_bilinear,  # noqa: F401
                                     resize_images, resize_nearest_neighbor)
from graphlab.ops.image_ops import (decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image,  # noqa: F401
                                    decode_jpeg, decode_png, encode_jpeg, encode_png)
from graphlab.ops.string_codec_ops import extract_jpeg_shape, is_jpeg  # noqa: F401
